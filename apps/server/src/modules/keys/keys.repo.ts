import { asc, eq } from 'drizzle-orm';
import type { Tier } from '@keyport/shared/domain/tiers';
import type { DbOrTx } from '../../db/client';
import { licenseKeys } from '../../db/schema';

export type LicenseKeyRow = typeof licenseKeys.$inferSelect;

export function listKeysByOwner(db: DbOrTx, ownerId: number) {
  return db.select().from(licenseKeys).where(eq(licenseKeys.ownerId, ownerId)).orderBy(asc(licenseKeys.id));
}

/** Inserts new unclaimed keys; returns them. A (vanishingly unlikely) duplicate key is skipped, not overwritten. */
export function insertUnclaimedKeys(db: DbOrTx, tier: Tier, apiKeys: string[]) {
  return db
    .insert(licenseKeys)
    .values(apiKeys.map((apiKey) => ({ apiKey, tier })))
    .onConflictDoNothing()
    .returning({ apiKey: licenseKeys.apiKey });
}
