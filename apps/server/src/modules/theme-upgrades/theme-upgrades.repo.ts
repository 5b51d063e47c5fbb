import { and, desc, eq, lt, or } from 'drizzle-orm';
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

/**
 * Marks runs of these keys or this store that have been `running` since before `startedBefore` as failed: a process
 * that died mid-run must not block the key for ever. An engine run takes seconds; the cut-off is minutes.
 */
export function abandonStaleRuns(db: DbOrTx, scope: { keyIds: number[]; store: string | null }, startedBefore: Date) {
  const matches = [
    ...scope.keyIds.flatMap((id) => [eq(themeUpgradeRuns.sourceKeyId, id), eq(themeUpgradeRuns.targetKeyId, id)]),
    ...(scope.store ? [eq(themeUpgradeRuns.store, scope.store)] : []),
  ];
  return db
    .update(themeUpgradeRuns)
    .set({ status: 'failed', errorCode: 'abandoned', finishedAt: new Date() })
    .where(and(eq(themeUpgradeRuns.status, 'running'), lt(themeUpgradeRuns.createdAt, startedBefore), or(...matches)));
}
