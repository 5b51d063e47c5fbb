import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { generateSecret, hashSecret } from './secrets';

describe('secrets', () => {
  it('stores the SHA-256 of a secret, hex, as before the one-shot hash (sessions already stored still match)', () => {
    for (const secret of [generateSecret(), 'a', 'é-ü', '']) {
      expect(hashSecret(secret)).toBe(createHash('sha256').update(secret).digest('hex'));
    }
    expect(hashSecret('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });

  it('makes a new 256-bit secret every time', () => {
    const secrets = new Set(Array.from({ length: 100 }, generateSecret));
    expect(secrets.size).toBe(100);
    for (const secret of secrets) expect(Buffer.from(secret, 'base64url')).toHaveLength(32);
  });
});
