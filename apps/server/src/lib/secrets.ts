import { hash, randomBytes } from 'node:crypto';

/** A new opaque secret: 256 bits from the CSPRNG, base64url. */
export function generateSecret(): string {
  return randomBytes(32).toString('base64url');
}

/**
 * What is stored instead of a secret: its SHA-256, hex. Every signed-in request hashes its session token: Node's
 * one-shot `hash` costs a third of a `createHash` object's update and digest (issue 22, ADR 048), same bytes.
 */
export function hashSecret(secret: string): string {
  return hash('sha256', secret, 'hex');
}
