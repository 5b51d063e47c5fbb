import { and, desc, eq, isNotNull, isNull, lte, ne, or } from 'drizzle-orm';
import type { ThemeFileUpdatePhase } from '@keyport/shared/contracts/theme-file-updates';
import type { DbOrTx } from '../../db/client';
import { themeFileUpdateRuns } from '../../db/schema';

export type RunRow = typeof themeFileUpdateRuns.$inferSelect;
export type NewRun = typeof themeFileUpdateRuns.$inferInsert;

/** Starts a run; the partial unique indexes refuse a second run in progress of the same key or store (23505). */
export function insertRun(db: DbOrTx, values: NewRun) {
  return db
    .insert(themeFileUpdateRuns)
    .values(values)
    .returning()
    .then((rows) => rows[0]!);
}

/** Ends a run still in progress (conditional: a run is finished once). */
export function finishRun(db: DbOrTx, id: number, values: Partial<NewRun>) {
  return db
    .update(themeFileUpdateRuns)
    .set({ ...values, finishedAt: new Date() })
    .where(and(eq(themeFileUpdateRuns.id, id), eq(themeFileUpdateRuns.status, 'running')))
    .returning()
    .then((rows) => rows[0] ?? null);
}

export function findOwnRun(db: DbOrTx, userId: number, id: number) {
  return db
    .select()
    .from(themeFileUpdateRuns)
    .where(and(eq(themeFileUpdateRuns.id, id), eq(themeFileUpdateRuns.userId, userId)))
    .then((rows) => rows[0] ?? null);
}

/** The caller's runs, newest first; with `keyId`, those where it is the source or the target. */
export function listOwnRuns(db: DbOrTx, userId: number, keyId?: number) {
  const own = eq(themeFileUpdateRuns.userId, userId);
  const where =
    keyId === undefined
      ? own
      : and(own, or(eq(themeFileUpdateRuns.sourceKeyId, keyId), eq(themeFileUpdateRuns.targetKeyId, keyId)));
  return db.select().from(themeFileUpdateRuns).where(where).orderBy(desc(themeFileUpdateRuns.id)).limit(50);
}

/** Records the job that runs it (in the transaction that inserted both). */
export function setJob(db: DbOrTx, id: number, jobId: number | null) {
  return db
    .update(themeFileUpdateRuns)
    .set({ jobId })
    .where(eq(themeFileUpdateRuns.id, id))
    .returning()
    .then((rows) => rows[0]!);
}

/** A run by id, whoever owns it (the job's own look-up). */
export function findRun(db: DbOrTx, id: number) {
  return db
    .select()
    .from(themeFileUpdateRuns)
    .where(eq(themeFileUpdateRuns.id, id))
    .then((rows) => rows[0] ?? null);
}

/** The run's phase and progress, while it is running; false when it no longer is (cancelled, ended elsewhere). */
export function setProgress(db: DbOrTx, id: number, phase: ThemeFileUpdatePhase, done: number, total: number) {
  return db
    .update(themeFileUpdateRuns)
    .set({ phase, progressDone: done, progressTotal: total })
    .where(and(eq(themeFileUpdateRuns.id, id), eq(themeFileUpdateRuns.status, 'running')))
    .returning({ id: themeFileUpdateRuns.id })
    .then((rows) => rows.length > 0);
}

/** The upload is no longer kept. */
export function clearUpload(db: DbOrTx, id: number) {
  return db.update(themeFileUpdateRuns).set({ uploadKey: null }).where(eq(themeFileUpdateRuns.id, id));
}

/** Runs in progress; with a scope, those of these keys (as source or target) or this store. */
export function listRunning(db: DbOrTx, scope: { keyIds: number[]; store: string | null } | null) {
  const matches = scope
    ? [
        ...scope.keyIds.flatMap((id) => [
          eq(themeFileUpdateRuns.sourceKeyId, id),
          eq(themeFileUpdateRuns.targetKeyId, id),
        ]),
        ...(scope.store ? [eq(themeFileUpdateRuns.store, scope.store)] : []),
      ]
    : [];
  const running = eq(themeFileUpdateRuns.status, 'running');
  return db
    .select()
    .from(themeFileUpdateRuns)
    .where(scope ? and(running, or(...matches)) : running)
    .limit(500);
}

/** Runs past their retention whose files were not deleted yet (ended ones: a running run is never expired). */
export function listExpiredWithFiles(db: DbOrTx, at: Date, limit: number) {
  return db
    .select()
    .from(themeFileUpdateRuns)
    .where(
      and(
        lte(themeFileUpdateRuns.expiresAt, at),
        isNull(themeFileUpdateRuns.filesDeletedAt),
        ne(themeFileUpdateRuns.status, 'running'),
      ),
    )
    .limit(limit);
}

export function markFilesDeleted(db: DbOrTx, id: number, at: Date) {
  return db
    .update(themeFileUpdateRuns)
    .set({ filesDeletedAt: at, uploadKey: null })
    .where(eq(themeFileUpdateRuns.id, id));
}

/** Runs that ended but still hold their upload (a worker stopped between the end and the clean-up). */
export function listEndedWithUpload(db: DbOrTx, limit: number) {
  return db
    .select()
    .from(themeFileUpdateRuns)
    .where(and(ne(themeFileUpdateRuns.status, 'running'), isNotNull(themeFileUpdateRuns.uploadKey)))
    .limit(limit);
}

/** The newest run that succeeded onto this key (as target), or null. */
export function findLatestSucceededOnto(db: DbOrTx, targetKeyId: number) {
  return db
    .select()
    .from(themeFileUpdateRuns)
    .where(and(eq(themeFileUpdateRuns.targetKeyId, targetKeyId), eq(themeFileUpdateRuns.status, 'succeeded')))
    .orderBy(desc(themeFileUpdateRuns.id))
    .limit(1)
    .then((rows) => rows[0] ?? null);
}
