import { and, desc, eq, isNotNull, isNull, lte, ne, or } from 'drizzle-orm';
import type { ThemeUpgradePhase } from '@keyport/shared/contracts/theme-upgrades';
import type { DbOrTx } from '../../db/client';
import { themeUpgradeRuns } from '../../db/schema';

export type RunRow = typeof themeUpgradeRuns.$inferSelect;
export type NewRun = typeof themeUpgradeRuns.$inferInsert;

/** Starts a run; the partial unique indexes refuse a second run in progress of the same key or store (23505). */
export function insertRun(db: DbOrTx, values: NewRun) {
  return db
    .insert(themeUpgradeRuns)
    .values(values)
    .returning()
    .then((rows) => rows[0]!);
}

/** Ends a run still in progress (conditional: a run is finished once). */
export function finishRun(db: DbOrTx, id: number, values: Partial<NewRun>) {
  return db
    .update(themeUpgradeRuns)
    .set({ ...values, finishedAt: new Date() })
    .where(and(eq(themeUpgradeRuns.id, id), eq(themeUpgradeRuns.status, 'running')))
    .returning()
    .then((rows) => rows[0] ?? null);
}

export function findOwnRun(db: DbOrTx, userId: number, id: number) {
  return db
    .select()
    .from(themeUpgradeRuns)
    .where(and(eq(themeUpgradeRuns.id, id), eq(themeUpgradeRuns.userId, userId)))
    .then((rows) => rows[0] ?? null);
}

/** The caller's runs, newest first; with `keyId`, those where it is the source or the target. */
export function listOwnRuns(db: DbOrTx, userId: number, keyId?: number) {
  const own = eq(themeUpgradeRuns.userId, userId);
  const where =
    keyId === undefined
      ? own
      : and(own, or(eq(themeUpgradeRuns.sourceKeyId, keyId), eq(themeUpgradeRuns.targetKeyId, keyId)));
  return db.select().from(themeUpgradeRuns).where(where).orderBy(desc(themeUpgradeRuns.id)).limit(50);
}

/** Records the job that runs it (in the transaction that inserted both). */
export function setJob(db: DbOrTx, id: number, jobId: number | null) {
  return db
    .update(themeUpgradeRuns)
    .set({ jobId })
    .where(eq(themeUpgradeRuns.id, id))
    .returning()
    .then((rows) => rows[0]!);
}

/** A run by id, whoever owns it (the job's own look-up). */
export function findRun(db: DbOrTx, id: number) {
  return db
    .select()
    .from(themeUpgradeRuns)
    .where(eq(themeUpgradeRuns.id, id))
    .then((rows) => rows[0] ?? null);
}

/** The run's phase and progress, while it is running; false when it no longer is (cancelled, ended elsewhere). */
export function setProgress(db: DbOrTx, id: number, phase: ThemeUpgradePhase, done: number, total: number) {
  return db
    .update(themeUpgradeRuns)
    .set({ phase, progressDone: done, progressTotal: total })
    .where(and(eq(themeUpgradeRuns.id, id), eq(themeUpgradeRuns.status, 'running')))
    .returning({ id: themeUpgradeRuns.id })
    .then((rows) => rows.length > 0);
}

/** The upload is no longer kept. */
export function clearUpload(db: DbOrTx, id: number) {
  return db.update(themeUpgradeRuns).set({ uploadKey: null }).where(eq(themeUpgradeRuns.id, id));
}

/** Runs in progress; with a scope, those of these keys (as source or target) or this store. */
export function listRunning(db: DbOrTx, scope: { keyIds: number[]; store: string | null } | null) {
  const matches = scope
    ? [
        ...scope.keyIds.flatMap((id) => [eq(themeUpgradeRuns.sourceKeyId, id), eq(themeUpgradeRuns.targetKeyId, id)]),
        ...(scope.store ? [eq(themeUpgradeRuns.store, scope.store)] : []),
      ]
    : [];
  const running = eq(themeUpgradeRuns.status, 'running');
  return db
    .select()
    .from(themeUpgradeRuns)
    .where(scope ? and(running, or(...matches)) : running)
    .limit(500);
}

/** Runs past their retention whose files were not deleted yet (ended ones: a running run is never expired). */
export function listExpiredWithFiles(db: DbOrTx, at: Date, limit: number) {
  return db
    .select()
    .from(themeUpgradeRuns)
    .where(
      and(
        lte(themeUpgradeRuns.expiresAt, at),
        isNull(themeUpgradeRuns.filesDeletedAt),
        ne(themeUpgradeRuns.status, 'running'),
      ),
    )
    .limit(limit);
}

export function markFilesDeleted(db: DbOrTx, id: number, at: Date) {
  return db.update(themeUpgradeRuns).set({ filesDeletedAt: at, uploadKey: null }).where(eq(themeUpgradeRuns.id, id));
}

/** Runs that ended but still hold their upload (a worker stopped between the end and the clean-up). */
export function listEndedWithUpload(db: DbOrTx, limit: number) {
  return db
    .select()
    .from(themeUpgradeRuns)
    .where(and(ne(themeUpgradeRuns.status, 'running'), isNotNull(themeUpgradeRuns.uploadKey)))
    .limit(limit);
}

/** The newest run that succeeded onto this key (as target), or null. */
export function findLatestSucceededOnto(db: DbOrTx, targetKeyId: number) {
  return db
    .select()
    .from(themeUpgradeRuns)
    .where(and(eq(themeUpgradeRuns.targetKeyId, targetKeyId), eq(themeUpgradeRuns.status, 'succeeded')))
    .orderBy(desc(themeUpgradeRuns.id))
    .limit(1)
    .then((rows) => rows[0] ?? null);
}
