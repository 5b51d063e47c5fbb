import { and, asc, eq, isNull, sql } from 'drizzle-orm';
import type { Tier } from '@keyport/shared/domain/tiers';
import type { DbOrTx } from '../../db/client';
import { licenseKeys } from '../../db/schema';

export type LicenseKeyRow = typeof licenseKeys.$inferSelect;

/** The owner's keys, as a prepared statement: it runs on every dashboard load. */
export function prepareListKeysByOwner(db: DbOrTx) {
  return db
    .select()
    .from(licenseKeys)
    .where(eq(licenseKeys.ownerId, sql.placeholder('ownerId')))
    .orderBy(asc(licenseKeys.id))
    .prepare('list_keys_by_owner');
}

/** Inserts new unclaimed keys; returns them. A (vanishingly unlikely) duplicate key is skipped, not overwritten. */
export function insertUnclaimedKeys(db: DbOrTx, tier: Tier, apiKeys: string[]) {
  return db
    .insert(licenseKeys)
    .values(apiKeys.map((apiKey) => ({ apiKey, tier })))
    .onConflictDoNothing()
    .returning({ apiKey: licenseKeys.apiKey });
}

/**
 * Claims an unclaimed key for `ownerId` in one statement: of two people adding the same key at once, the
 * `owner_id IS NULL` condition lets exactly one win. Null when nothing was claimed.
 */
export function claimUnownedKey(db: DbOrTx, apiKey: string, ownerId: number) {
  return db
    .update(licenseKeys)
    .set({ ownerId, claimedAt: sql`now()` })
    .where(and(eq(licenseKeys.apiKey, apiKey), isNull(licenseKeys.ownerId)))
    .returning()
    .then((rows) => rows[0] ?? null);
}

/** Who owns a key: `{ ownerId }` (null while unclaimed), or null when the key does not exist. */
export function findKeyOwner(db: DbOrTx, apiKey: string) {
  return db
    .select({ ownerId: licenseKeys.ownerId })
    .from(licenseKeys)
    .where(eq(licenseKeys.apiKey, apiKey))
    .then((rows) => rows[0] ?? null);
}

/**
 * Releases a key from its owner and clears its store connection, in one statement that only matches the
 * owner's key. The row stays, unclaimed, so the key can be added again. Null when nothing matched.
 */
export function releaseOwnedKey(db: DbOrTx, apiKey: string, ownerId: number) {
  return db
    .update(licenseKeys)
    .set({
      ownerId: null,
      linkedAppStore: null,
      mainUrl: null,
      myshopify: null,
      secondaryUrl: null,
      claimedAt: null,
      // The token dies with the connection: a new version makes any copy of it stale.
      authToken: null,
      tokenVersion: sql`${licenseKeys.tokenVersion} + 1`,
      tokenIssuedAt: null,
    })
    .where(and(eq(licenseKeys.apiKey, apiKey), eq(licenseKeys.ownerId, ownerId)))
    .returning({ id: licenseKeys.id })
    .then((rows) => rows[0] ?? null);
}
