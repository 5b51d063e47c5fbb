import { and, asc, count, desc, eq, isNull, sql } from 'drizzle-orm';
import { unionAll } from 'drizzle-orm/pg-core';
import type { Tier } from '@keyport/shared/domain/tiers';
import type { DbOrTx } from '../../db/client';
import { licenseCheckins, releaseCurrent, releaseDownloads, releases } from '../../db/schema';

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

/** The release staff chose as the edition's current one, or null. */
export function findCurrentReleaseId(db: DbOrTx, edition: Tier) {
  return db
    .select({ releaseId: releaseCurrent.releaseId })
    .from(releaseCurrent)
    .where(eq(releaseCurrent.edition, edition))
    .then((rows) => rows[0]?.releaseId ?? null);
}

/** Makes a release its edition's current one: one upsert on the edition's row (the last choice wins). */
export async function setCurrentRelease(db: DbOrTx, release: { id: number; edition: Tier }, setBy: number) {
  await db
    .insert(releaseCurrent)
    .values({ edition: release.edition, releaseId: release.id, setBy })
    .onConflictDoUpdate({
      target: releaseCurrent.edition,
      set: { releaseId: release.id, setBy, setAt: sql`now()` },
    });
}

export type NewReleaseDownload = typeof releaseDownloads.$inferInsert;

export async function insertReleaseDownload(db: DbOrTx, values: NewReleaseDownload) {
  await db.insert(releaseDownloads).values(values);
}

/**
 * What each key's store runs of this edition, as far as we know, as a subquery: its newest evidence, a download of a
 * release or (issue 13) a check-in of the license validation from a domain its token covers reporting a release's
 * version. `license_checkins` belongs to the licenses module: this staff view only reads it.
 */
function newestEvidencePerKey(db: DbOrTx, edition: Tier) {
  const downloads = db
    .select({
      keyId: releaseDownloads.keyId,
      releaseId: releaseDownloads.releaseId,
      store: releaseDownloads.store,
      seenAt: sql<Date>`${releaseDownloads.createdAt}`.as('seen_at'),
      seenBy: sql<'download' | 'check-in'>`'download'`.as('seen_by'),
    })
    .from(releaseDownloads)
    .where(eq(releaseDownloads.edition, edition));
  const checkins = db
    .select({
      keyId: licenseCheckins.keyId,
      releaseId: releases.id,
      store: licenseCheckins.domain,
      seenAt: sql<Date>`${licenseCheckins.lastSeenAt}`.as('seen_at'),
      seenBy: sql<'download' | 'check-in'>`'check-in'`.as('seen_by'),
    })
    .from(licenseCheckins)
    .innerJoin(
      releases,
      and(eq(releases.edition, licenseCheckins.edition), eq(releases.version, licenseCheckins.version)),
    )
    .where(and(eq(licenseCheckins.edition, edition), eq(licenseCheckins.covered, true)));
  const evidence = unionAll(downloads, checkins).as('evidence');
  return db
    .selectDistinctOn([evidence.keyId], {
      keyId: evidence.keyId,
      releaseId: evidence.releaseId,
      store: evidence.store,
      seenAt: evidence.seenAt,
      seenBy: evidence.seenBy,
    })
    .from(evidence)
    .orderBy(evidence.keyId, desc(evidence.seenAt))
    .as('newest');
}

/** How many keys of the edition run each release (their newest download or covered check-in). */
export async function countStoresPerRelease(db: DbOrTx, edition: Tier): Promise<Map<number, number>> {
  const newest = newestEvidencePerKey(db, edition);
  const rows = await db.select({ releaseId: newest.releaseId, n: count() }).from(newest).groupBy(newest.releaseId);
  return new Map(rows.map((row) => [row.releaseId, row.n]));
}

/** The keys (and their stores) whose newest evidence is this release, most recent first. */
export function listStoresOnRelease(db: DbOrTx, edition: Tier, releaseId: number, limit: number) {
  const newest = newestEvidencePerKey(db, edition);
  return db.select().from(newest).where(eq(newest.releaseId, releaseId)).orderBy(desc(newest.seenAt)).limit(limit);
}
