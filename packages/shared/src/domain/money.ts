/**
 * §9 "Currency USD. Amounts are sent in cents." Money is an integer number of cents everywhere; these functions turn
 * it into text and back without floating-point arithmetic. ADR 012.
 */

export const CURRENCY = 'usd' as const;

function assertCents(cents: number, name = 'cents'): void {
  if (!Number.isSafeInteger(cents)) throw new RangeError(`${name} must be a safe integer, got ${cents}`);
}

/** Thousands separated by commas, as en-US writes them: 1234567 → '1,234,567'. */
function groupThousands(digits: string): string {
  return digits.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

/** 12000 → '$120.00'; 123456789 → '$1,234,567.89'; -500 → '-$5.00' (en-US currency format). */
export function formatUsd(cents: number): string {
  assertCents(cents);
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(cents);
  const dollars = Math.floor(abs / 100);
  const rest = abs % 100;
  return `${sign}$${groupThousands(String(dollars))}.${String(rest).padStart(2, '0')}`;
}

const USD_PATTERN = /^(-)?\$?(\d{1,3}(?:,\d{3})+|\d+)(?:\.(\d{1,2}))?$/;

/**
 * What a person (or staff) types as a price → cents: '$1,234.50', '1234.5', '120', '-$5' → -500. Surrounding
 * whitespace is ignored; commas must group thousands; at most two decimals. Anything else is null.
 */
export function parseUsdToCents(text: string): number | null {
  const match = USD_PATTERN.exec(text.trim());
  if (!match) return null;
  const [, minus, whole = '', fraction = ''] = match;
  const cents = Number(whole.replaceAll(',', '') + fraction.padEnd(2, '0'));
  if (!Number.isSafeInteger(cents)) return null;
  return minus && cents !== 0 ? -cents : cents;
}

/** A rate in basis points (1900 = 19%, 770 = 7.7%) as §9 writes it: '19%', '7.7%', '12.34%', '0%'. */
export function formatVatRate(rateBp: number): string {
  if (!Number.isSafeInteger(rateBp) || rateBp < 0) {
    throw new RangeError(`rateBp must be a non-negative integer, got ${rateBp}`);
  }
  const whole = Math.floor(rateBp / 100);
  const fraction = String(rateBp % 100)
    .padStart(2, '0')
    .replace(/0+$/, '');
  return fraction ? `${whole}.${fraction}%` : `${whole}%`;
}
