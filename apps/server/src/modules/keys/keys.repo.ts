import { asc, eq, sql } from 'drizzle-orm';
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
