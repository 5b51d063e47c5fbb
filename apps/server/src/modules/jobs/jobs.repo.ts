import { and, asc, desc, eq, inArray, isNotNull, lt, lte, or, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { jobSchedules, jobs, type JobStatus } from '../../db/schema';

export type JobRow = typeof jobs.$inferSelect;

/** One claim of a job: the worker and the attempt it took. Every write of a running job names its claim. */
export interface Claim {
  id: number;
  lockedBy: string;
  attempts: number;
}

const ownedBy = (claim: Claim) =>
  and(
    eq(jobs.id, claim.id),
    eq(jobs.status, 'running'),
    eq(jobs.lockedBy, claim.lockedBy),
    eq(jobs.attempts, claim.attempts),
  );

/** Due: queued and its time has come, or running under a claim that expired (its worker died or hung). */
const dueAt = (now: Date) =>
  or(and(eq(jobs.status, 'queued'), lte(jobs.runAt, now)), and(eq(jobs.status, 'running'), lt(jobs.lockedUntil, now)));

/** Inserts a job; with a dedupe key already used for this kind, nothing (null). */
export async function insertJob(
  db: DbOrTx,
  values: { kind: string; payload: Record<string, unknown>; runAt: Date; dedupeKey: string | null },
): Promise<number | null> {
  const [row] = await db.insert(jobs).values(values).onConflictDoNothing().returning({ id: jobs.id });
  return row?.id ?? null;
}

/**
 * Claims up to `limit` due jobs of the kinds in `leaseUntil` for `lockedBy` until their kind's lease end, counting
 * the attempt, in one statement: the rows are locked with `FOR UPDATE SKIP LOCKED`, so concurrent workers (other
 * processes) take other rows, and the outer condition is checked again on the locked row.
 */
export function claimDue(
  db: DbOrTx,
  input: { leaseUntil: Map<string, Date>; now: Date; limit: number; lockedBy: string },
): Promise<JobRow[]> {
  const kinds = [...input.leaseUntil.keys()];
  const lockedUntil = sql`case ${jobs.kind} ${sql.join(
    [...input.leaseUntil].map(([kind, until]) => sql`when ${kind} then ${until.toISOString()}::timestamptz`),
    sql` `,
  )} end`;
  const candidates = db
    .select({ id: jobs.id })
    .from(jobs)
    .where(and(inArray(jobs.kind, kinds), dueAt(input.now)))
    .orderBy(asc(jobs.runAt), asc(jobs.id))
    .limit(input.limit)
    .for('update', { skipLocked: true });
  return db
    .update(jobs)
    .set({
      status: 'running',
      attempts: sql`${jobs.attempts} + 1`,
      lockedBy: input.lockedBy,
      lockedUntil,
    })
    .where(and(inArray(jobs.id, candidates), dueAt(input.now)))
    .returning();
}

/** Extends a claim; answers whether cancellation was asked for, or null when the claim is no longer ours. */
export async function renewClaim(
  db: DbOrTx,
  claim: Claim,
  lockedUntil: Date,
): Promise<{ cancelRequested: boolean } | null> {
  const [row] = await db
    .update(jobs)
    .set({ lockedUntil })
    .where(ownedBy(claim))
    .returning({ cancelRequestedAt: jobs.cancelRequestedAt });
  return row ? { cancelRequested: row.cancelRequestedAt !== null } : null;
}

export async function setProgress(db: DbOrTx, claim: Claim, progress: Record<string, unknown>): Promise<boolean> {
  const rows = await db.update(jobs).set({ progress }).where(ownedBy(claim)).returning({ id: jobs.id });
  return rows.length > 0;
}

/** Ends a claim: done, dead or cancelled. False when the claim was no longer ours (another worker has the job). */
export async function finish(
  db: DbOrTx,
  claim: Claim,
  status: Extract<JobStatus, 'done' | 'dead' | 'cancelled'>,
  at: Date,
  lastError: string | null,
): Promise<boolean> {
  const rows = await db
    .update(jobs)
    .set({ status, finishedAt: at, lockedBy: null, lockedUntil: null, lastError })
    .where(ownedBy(claim))
    .returning({ id: jobs.id });
  return rows.length > 0;
}

/** A failed attempt: queued again for `runAt`, with the reason. */
export async function retryLater(db: DbOrTx, claim: Claim, runAt: Date, lastError: string): Promise<boolean> {
  const rows = await db
    .update(jobs)
    .set({ status: 'queued', runAt, lockedBy: null, lockedUntil: null, lastError })
    .where(ownedBy(claim))
    .returning({ id: jobs.id });
  return rows.length > 0;
}

/** Gives a claim back without counting it (the worker stopped before or while running it): due again at once. */
export async function release(db: DbOrTx, claim: Claim): Promise<void> {
  await db
    .update(jobs)
    .set({ status: 'queued', attempts: sql`${jobs.attempts} - 1`, lockedBy: null, lockedUntil: null })
    .where(ownedBy(claim));
}

/** A queued job is cancelled at once; a running one is asked to stop (its worker sees it when it renews its claim). */
export async function cancel(db: DbOrTx, id: number, at: Date): Promise<'cancelled' | 'cancelling' | null> {
  const [queued] = await db
    .update(jobs)
    .set({ status: 'cancelled', finishedAt: at })
    .where(and(eq(jobs.id, id), eq(jobs.status, 'queued')))
    .returning({ id: jobs.id });
  if (queued) return 'cancelled';
  const [running] = await db
    .update(jobs)
    .set({ cancelRequestedAt: at })
    .where(and(eq(jobs.id, id), eq(jobs.status, 'running')))
    .returning({ id: jobs.id });
  return running ? 'cancelling' : null;
}

/** A dead job queued again from its first attempt (staff's retry). Null unless it was dead. */
export async function requeueDead(db: DbOrTx, id: number, at: Date): Promise<JobRow | null> {
  const [row] = await db
    .update(jobs)
    .set({ status: 'queued', attempts: 0, runAt: at, finishedAt: null })
    .where(and(eq(jobs.id, id), eq(jobs.status, 'dead')))
    .returning();
  return row ?? null;
}

export async function findJob(db: DbOrTx, id: number): Promise<JobRow | null> {
  const [row] = await db.select().from(jobs).where(eq(jobs.id, id));
  return row ?? null;
}

/** The earliest time a queued or running job of `kinds` needs a worker again, or null when none is waiting. */
export async function nextWake(db: DbOrTx, kinds: string[]): Promise<Date | null> {
  const [row] = await db
    .select({
      // The drivers answer a raw timestamp as a string (node-postgres) or a Date (PGlite).
      wake: sql<
        string | Date | null
      >`min(case when ${jobs.status} = 'queued' then ${jobs.runAt} else ${jobs.lockedUntil} end)`,
    })
    .from(jobs)
    .where(and(inArray(jobs.kind, kinds), inArray(jobs.status, ['queued', 'running'])));
  return row?.wake ? new Date(row.wake) : null;
}

/**
 * Staff's view: dead jobs (`dead`), or jobs that failed at least once and wait for their next attempt (`retrying`),
 * newest first, a page at a time (cursor: the last id seen).
 */
export function listProblems(
  db: DbOrTx,
  input: { status: 'dead' | 'retrying'; beforeId: number | null; limit: number },
): Promise<JobRow[]> {
  const which =
    input.status === 'dead'
      ? eq(jobs.status, 'dead')
      : and(inArray(jobs.status, ['queued', 'running']), isNotNull(jobs.lastError));
  return db
    .select()
    .from(jobs)
    .where(and(which, input.beforeId === null ? undefined : lt(jobs.id, input.beforeId)))
    .orderBy(desc(jobs.id))
    .limit(input.limit);
}

/** When the schedule runs next, as the database has it. */
export async function scheduleNextRun(db: DbOrTx, name: string): Promise<Date | null> {
  const [row] = await db
    .select({ nextRunAt: jobSchedules.nextRunAt })
    .from(jobSchedules)
    .where(eq(jobSchedules.name, name));
  return row?.nextRunAt ?? null;
}

/** Deletes jobs that finished (done or cancelled) before `before`; answers how many. */
export async function pruneFinished(db: DbOrTx, before: Date): Promise<number> {
  const rows = await db
    .delete(jobs)
    .where(and(inArray(jobs.status, ['done', 'cancelled']), lt(jobs.finishedAt, before)))
    .returning({ id: jobs.id });
  return rows.length;
}

/**
 * A schedule's row, created by the first process that starts it. A later start only brings its next run closer (a
 * period shortened by a new version), never later.
 */
export async function ensureSchedule(db: DbOrTx, name: string, firstRunAt: Date): Promise<void> {
  await db
    .insert(jobSchedules)
    .values({ name, nextRunAt: firstRunAt })
    .onConflictDoUpdate({
      target: jobSchedules.name,
      set: { nextRunAt: sql`least(${jobSchedules.nextRunAt}, excluded.next_run_at)` },
    });
}

/**
 * Takes the schedule's due period: moves `next_run_at` to `nextRunAt` if it is not past `now` yet. Only one
 * transaction of all the processes wins a period (the conditional update); true for that one.
 */
export async function takeSchedule(db: DbOrTx, name: string, now: Date, nextRunAt: Date): Promise<boolean> {
  const rows = await db
    .update(jobSchedules)
    .set({ nextRunAt, lastRunAt: now })
    .where(and(eq(jobSchedules.name, name), lte(jobSchedules.nextRunAt, now)))
    .returning({ name: jobSchedules.name });
  return rows.length > 0;
}
