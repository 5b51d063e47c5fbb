import { and, asc, count, desc, eq, isNull, sql } from 'drizzle-orm';
import { unionAll } from 'drizzle-orm/pg-core';
import type { MigrationMap } from '@keyport/shared/contracts/migration-map';
import type { Tier } from '@keyport/shared/domain/tiers';
import type { DbOrTx } from '../../db/client';
import { releaseCurrent, releaseDownloads, releases } from '../../db/schema';

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

/** Gives a release the system published (the seed's) a migration map, only while it has none. */
export function setSeedMigrationMap(db: DbOrTx, id: number, map: MigrationMap) {
  return db
    .update(releases)
    .set({ migrationMap: map })
    .where(and(eq(releases.id, id), isNull(releases.migrationMap), isNull(releases.createdBy)));
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

/** Each key's downloads of this edition as evidence of what its store runs (same columns as `CheckinEvidence`). */
function downloadEvidence(db: DbOrTx, edition: Tier) {
  return db
    .select({
      keyId: releaseDownloads.keyId,
      version: releaseDownloads.version,
      store: releaseDownloads.store,
      seenAt: sql<Date>`${releaseDownloads.createdAt}`.as('seen_at'),
      seenBy: sql<'download' | 'check-in'>`'download'`.as('seen_by'),
    })
    .from(releaseDownloads)
    .where(eq(releaseDownloads.edition, edition));
}

/**
 * Evidence from outside this module, as a query with the columns of `downloadEvidence`: covered license check-ins of
 * the edition (the licenses module builds it: it owns `license_checkins`).
 */
export interface CheckinEvidence {
  readonly _: { readonly result: EvidenceRow[] };
}
interface EvidenceRow {
  keyId: number;
  version: string;
  store: string | null;
  seenAt: Date;
  seenBy: 'download' | 'check-in';
}

/**
 * What each key's store runs of this edition, as far as we know, as a subquery: its newest evidence, a download of a
 * release or (issue 13) a covered check-in reporting a release's version, whichever is newer. A version that is no
 * release of the edition (a modified theme) is not evidence of any.
 */
function newestEvidencePerKey(db: DbOrTx, edition: Tier, checkins: CheckinEvidence) {
  // The two queries select the same columns (the union checks their SQL, not their tables' names as the types do).
  const evidence = unionAll(
    downloadEvidence(db, edition),
    checkins as unknown as ReturnType<typeof downloadEvidence>,
  ).as('evidence');
  return db
    .selectDistinctOn([evidence.keyId], {
      keyId: evidence.keyId,
      releaseId: releases.id,
      store: evidence.store,
      seenAt: evidence.seenAt,
      seenBy: evidence.seenBy,
    })
    .from(evidence)
    .innerJoin(releases, and(eq(releases.edition, edition), eq(releases.version, evidence.version)))
    .orderBy(evidence.keyId, desc(evidence.seenAt))
    .as('newest');
}

/** How many keys of the edition run each release (their newest download or covered check-in). */
export async function countStoresPerRelease(
  db: DbOrTx,
  edition: Tier,
  checkins: CheckinEvidence,
): Promise<Map<number, number>> {
  const newest = newestEvidencePerKey(db, edition, checkins);
  const rows = await db.select({ releaseId: newest.releaseId, n: count() }).from(newest).groupBy(newest.releaseId);
  return new Map(rows.map((row) => [row.releaseId, row.n]));
}

/** The keys (and their stores) whose newest evidence is this release, most recent first. */
export function listStoresOnRelease(
  db: DbOrTx,
  edition: Tier,
  releaseId: number,
  limit: number,
  checkins: CheckinEvidence,
) {
  const newest = newestEvidencePerKey(db, edition, checkins);
  return db.select().from(newest).where(eq(newest.releaseId, releaseId)).orderBy(desc(newest.seenAt)).limit(limit);
}
