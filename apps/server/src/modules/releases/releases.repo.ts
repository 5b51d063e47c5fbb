import { and, asc, eq } from 'drizzle-orm';
import type { Tier } from '@keyport/shared/domain/tiers';
import type { DbOrTx } from '../../db/client';
import { licenseKeys, releases } from '../../db/schema';

export type ReleaseRow = typeof releases.$inferSelect;
export type NewRelease = typeof releases.$inferInsert;

/** Inserts a release; null when that edition already has that version (the unique index decides, not a read). */
export function insertRelease(db: DbOrTx, values: NewRelease) {
  return db
    .insert(releases)
    .values(values)
    .onConflictDoNothing({ target: [releases.edition, releases.version] })
    .returning()
    .then((rows) => rows[0] ?? null);
}

export function findReleaseByVersion(db: DbOrTx, edition: Tier, version: string) {
  return db
    .select({ id: releases.id })
    .from(releases)
    .where(and(eq(releases.edition, edition), eq(releases.version, version)))
    .then((rows) => rows[0] ?? null);
}

/** An edition's releases in upload order (a handful per edition: the newest version is chosen in code). */
export function listEditionReleases(db: DbOrTx, edition: Tier) {
  return db.select().from(releases).where(eq(releases.edition, edition)).orderBy(asc(releases.id));
}

export function findRelease(db: DbOrTx, id: number) {
  return db
    .select()
    .from(releases)
    .where(eq(releases.id, id))
    .then((rows) => rows[0] ?? null);
}

export function hasEditionRelease(db: DbOrTx, edition: Tier) {
  return db
    .select({ id: releases.id })
    .from(releases)
    .where(eq(releases.edition, edition))
    .limit(1)
    .then((rows) => rows.length > 0);
}

const keyColumns = { id: licenseKeys.id, tier: licenseKeys.tier, tokenVersion: licenseKeys.tokenVersion };

/** The caller's key by its license key text; null when it does not exist or someone else holds it. */
export function findOwnedKeyByApiKey(db: DbOrTx, ownerId: number, apiKey: string) {
  return db
    .select(keyColumns)
    .from(licenseKeys)
    .where(and(eq(licenseKeys.apiKey, apiKey), eq(licenseKeys.ownerId, ownerId)))
    .then((rows) => rows[0] ?? null);
}

/**
 * The caller's key by id and, in the same query, the release a link names (null when it does not exist). Null when
 * the key does not exist or someone else holds it. One round trip: it runs on every download.
 */
export function findOwnedKeyWithRelease(db: DbOrTx, ownerId: number, keyId: number, releaseId: number) {
  return db
    .select({ key: keyColumns, release: releases })
    .from(licenseKeys)
    .leftJoin(releases, eq(releases.id, releaseId))
    .where(and(eq(licenseKeys.id, keyId), eq(licenseKeys.ownerId, ownerId)))
    .then((rows) => rows[0] ?? null);
}
