import { randomInt } from 'node:crypto';

// Crockford base32: no I, L, O or U, so a key read aloud or retyped is unambiguous.
const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/** A new license key: 5 groups of 5 characters (125 random bits), e.g. `7KQ2M-…`. */
export function generateLicenseKey(): string {
  const groups: string[] = [];
  for (let g = 0; g < 5; g++) {
    let group = '';
    for (let i = 0; i < 5; i++) group += ALPHABET[randomInt(ALPHABET.length)];
    groups.push(group);
  }
  return groups.join('-');
}

/** How a submitted key is matched: license keys are stored in upper case, so `abcde-…` finds `ABCDE-…`. */
export function normalizeLicenseKey(input: string): string {
  return input.trim().toUpperCase();
}
