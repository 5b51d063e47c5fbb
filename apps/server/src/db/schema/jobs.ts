/** modules/jobs: the job engine's jobs and schedules. */
import { sql } from 'drizzle-orm';
import { bigint, check, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAt } from './columns';

export const JOB_STATUSES = ['queued', 'running', 'done', 'dead', 'cancelled'] as const;

export type JobStatus = (typeof JOB_STATUSES)[number];

/**
 * The job engine's queue (modules/jobs, ADR 038): every after-commit effect (emails, analytics, the sandboxes' webhook
 * deliveries, recurring clean-ups, theme-file updates next) is a row here, inserted in the caller's transaction.
 * A worker claims due rows with `FOR UPDATE SKIP LOCKED` and a lease (`locked_by`, `locked_until`, renewed while the
 * handler runs); a failure goes back to `queued` with a backoff, and after the kind's last attempt to `dead`, where
 * staff see it and may retry it. `dedupe_key` makes an enqueue idempotent per kind.
 */
export const jobs = pgTable(
  'jobs',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    kind: text('kind').notNull(),
    payload: jsonb('payload').$type<Record<string, unknown>>().notNull(),
    status: text('status').$type<JobStatus>().notNull().default('queued'),
    dedupeKey: text('dedupe_key'),
    /** When it is due (again, after a failure's backoff). */
    runAt: timestamp('run_at', { withTimezone: true }).notNull(),
    /** Claims so far (each claim counts, so a worker that died mid-run used one up). */
    attempts: integer('attempts').notNull().default(0),
    /** The claim: which worker, and until when (a dead worker's claim expires). */
    lockedBy: text('locked_by'),
    lockedUntil: timestamp('locked_until', { withTimezone: true }),
    lastError: text('last_error'),
    /** What the handler reported last (long jobs), e.g. `{ "done": 3, "total": 10 }`. */
    progress: jsonb('progress').$type<Record<string, unknown>>(),
    cancelRequestedAt: timestamp('cancel_requested_at', { withTimezone: true }),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    check('jobs_status', sql`${t.status} in ('queued', 'running', 'done', 'dead', 'cancelled')`),
    check('jobs_attempts', sql`${t.attempts} >= 0`),
    uniqueIndex('jobs_kind_dedupe_key_unique').on(t.kind, t.dedupeKey),
    index('jobs_due_idx')
      .on(t.runAt, t.id)
      .where(sql`${t.status} = 'queued'`),
    index('jobs_running_idx')
      .on(t.lockedUntil)
      .where(sql`${t.status} = 'running'`),
    index('jobs_problems_idx')
      .on(t.status, t.id)
      .where(sql`${t.status} = 'dead' or ${t.lastError} is not null`),
  ],
);

/**
 * Recurring jobs (modules/jobs): one row per schedule. Whichever process first moves `next_run_at` past now with a
 * conditional update enqueues that period's job, in the same transaction: once per period across all processes.
 */
export const jobSchedules = pgTable('job_schedules', {
  name: text('name').primaryKey(),
  nextRunAt: timestamp('next_run_at', { withTimezone: true }).notNull(),
  lastRunAt: timestamp('last_run_at', { withTimezone: true }),
});
