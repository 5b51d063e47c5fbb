import { createHash, randomBytes } from 'node:crypto';

/** A new opaque secret: 256 bits from the CSPRNG, base64url. */
export function generateSecret(): string {
  return randomBytes(32).toString('base64url');
}

/** What is stored instead of a secret. */
export function hashSecret(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}
