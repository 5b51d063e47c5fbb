import { and, eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { licenseKeys, userStores } from '../../db/schema';

/**
 * Saves the domains and takes the next token version, in one statement, only for the owner.
 * Null when the key is not the owner's (or does not exist).
 */
export function saveDomainsAndBumpVersion(
  db: DbOrTx,
  ownerId: number,
  apiKey: string,
  domains: { mainUrl: string | null; myshopify: string | null; secondaryUrl: string | null },
  issuedAt: Date,
) {
  return db
    .update(licenseKeys)
    .set({ ...domains, tokenVersion: sql`${licenseKeys.tokenVersion} + 1`, tokenIssuedAt: issuedAt })
    .where(and(eq(licenseKeys.apiKey, apiKey), eq(licenseKeys.ownerId, ownerId)))
    .returning({
      id: licenseKeys.id,
      apiKey: licenseKeys.apiKey,
      tier: licenseKeys.tier,
      tokenVersion: licenseKeys.tokenVersion,
    })
    .then((rows) => rows[0] ?? null);
}

export async function storeToken(db: DbOrTx, keyId: number, version: number, token: string) {
  await db
    .update(licenseKeys)
    .set({ authToken: token })
    .where(and(eq(licenseKeys.id, keyId), eq(licenseKeys.tokenVersion, version)));
}

export async function rememberStore(db: DbOrTx, userId: number, myshopifyDomain: string) {
  await db.insert(userStores).values({ userId, myshopifyDomain }).onConflictDoNothing();
}

export function findOwnedKey(db: DbOrTx, ownerId: number, apiKey: string) {
  return db
    .select({
      id: licenseKeys.id,
      tier: licenseKeys.tier,
      authToken: licenseKeys.authToken,
      tokenVersion: licenseKeys.tokenVersion,
      ownerId: licenseKeys.ownerId,
    })
    .from(licenseKeys)
    .where(and(eq(licenseKeys.apiKey, apiKey), eq(licenseKeys.ownerId, ownerId)))
    .then((rows) => rows[0] ?? null);
}

export function findKeyById(db: DbOrTx, keyId: number) {
  return db
    .select({
      id: licenseKeys.id,
      tier: licenseKeys.tier,
      ownerId: licenseKeys.ownerId,
      tokenVersion: licenseKeys.tokenVersion,
    })
    .from(licenseKeys)
    .where(eq(licenseKeys.id, keyId))
    .then((rows) => rows[0] ?? null);
}
