import { and, asc, eq, isNull } from 'drizzle-orm';
import type { Tier } from '@keyport/shared/domain/tiers';
import type { DbOrTx } from '../../db/client';
import { releases } from '../../db/schema';

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

/** Fills in the manifest of a release stored before manifests existed (only while it is still empty). */
export function setReleaseManifest(db: DbOrTx, id: number, manifest: Record<string, string>) {
  return db
    .update(releases)
    .set({ manifest })
    .where(and(eq(releases.id, id), isNull(releases.manifest)));
}
