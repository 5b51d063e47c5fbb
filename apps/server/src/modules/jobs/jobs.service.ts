import { randomUUID } from 'node:crypto';
import os from 'node:os';
import type { FastifyBaseLogger } from 'fastify';
import type { Db, DbOrTx } from '../../db/client';
import { redactSecrets } from '../../integrations/payments/redact-secrets';
import * as repo from './jobs.repo';

/** What a handler gets besides its payload. */
export interface JobContext {
  readonly job: { id: number; kind: string; attempt: number; maxAttempts: number };
  /**
   * Aborted when the job should stop: cancelled (`jobs.cancel`), its claim lost (another worker took it after this
   * one stopped renewing), or the app closing. A long handler checks it between steps or passes it to what it awaits.
   */
  readonly signal: AbortSignal;
  /** Records how far it got (staff and the job's owner read it back with `jobs.find`); renews the claim too. */
  progress(value: Record<string, unknown>): Promise<void>;
  /** The engine's clock. */
  now(): Date;
}

/**
 * One kind of job: its handler and how it is retried. A handler must be safe to run again for the same payload (a
 * worker can die after the effect and before the job is marked done: the next claim runs it again).
 */
export interface JobDefinition<P extends Record<string, unknown> = Record<string, unknown>> {
  /** Stable, dotted: 'email.send', 'analytics.deliver'. Stored in each row. */
  kind: string;
  /** How the logs name it: `${what} failed; retrying with backoff`, `${what} given up`. */
  what: string;
  handler(payload: P, context: JobContext): Promise<void>;
  /** Attempts before the job is dead (a claim a dead worker held counts as one). */
  maxAttempts: number;
  /** The retry after the n-th failure waits `baseMs · 2^(n-1)`, at most `maxMs`. */
  backoff: { baseMs: number; maxMs: number };
  /** How long a claim holds the job; renewed every third of it while the handler runs (minutes-long jobs are fine). */
  leaseMs: number;
  /** One line for staff and logs, without secrets (never a link, token or email body). */
  describe(payload: P): string;
  /** Extra log fields for this kind's lines (ids, never secrets). */
  logContext?(payload: P): Record<string, unknown>;
  /** A failure that trying again cannot mend (a refusal, data that is gone): the job is dead at once. */
  isPermanent?(error: unknown): boolean;
}

/** The wait before the next attempt after `attempts` failed ones: exponential, capped. */
export function backoffDelay(attempts: number, backoff: JobDefinition['backoff']): number {
  return Math.min(backoff.maxMs, backoff.baseMs * 2 ** Math.max(0, attempts - 1));
}

export interface JobsOptions {
  db: Db;
  log: Pick<FastifyBaseLogger, 'info' | 'warn' | 'error'>;
  /** The engine's clock (tests move it to play hours of retries in a moment). */
  now?: () => Date;
  /** How often each process looks for due jobs besides the nudges after commits (a dead process's jobs, retries). */
  pollMs?: number;
  /** Jobs one process runs at once. */
  concurrency?: number;
  /** How long `stop` lets running handlers finish before it aborts them and gives their claims back. */
  stopGraceMs?: number;
}

export interface EnqueueOptions {
  /** Not before then (default: now). */
  runAt?: Date;
  /** A second enqueue of the same kind and key is dropped (answers null): an idempotent enqueue. */
  dedupeKey?: string;
}

/** A job as its owner sees it (`find`): how far it got. */
export interface JobView {
  id: number;
  kind: string;
  status: repo.JobRow['status'];
  attempts: number;
  progress: Record<string, unknown> | null;
  lastError: string | null;
  createdAt: Date;
  finishedAt: Date | null;
}

interface Schedule {
  name: string;
  kind: string;
  everyMs: number;
  payload: Record<string, unknown>;
  /** When this process last learned the schedule's next run (it does not ask the database before then). */
  knownNextRunAt: Date | null;
}

interface Running {
  kind: string;
  promise: Promise<void>;
  controller: AbortController;
}

/** Why a running handler was aborted. */
class JobCancelled extends Error {
  override name = 'JobCancelled';
}
class ClaimLost extends Error {
  override name = 'ClaimLost';
}
class EngineStopping extends Error {
  override name = 'EngineStopping';
}

const DEFAULTS = { pollMs: 2_000, concurrency: 8, stopGraceMs: 10_000 };
const MAX_ERROR_LENGTH = 500;

/**
 * The job engine (ADR 038): every after-commit effect is a row of `jobs`, enqueued in the caller's transaction. Each
 * process runs a worker: after a nudge (a commit that enqueued) and every `pollMs`, it claims due jobs with
 * `FOR UPDATE SKIP LOCKED` and a lease, runs their handlers (at most `concurrency` at once), renews the lease while a
 * handler runs, and records the outcome: done; queued again after an exponential backoff; dead after the kind's last
 * attempt (staff see it and may retry it); cancelled. A process that dies leaves its claims to expire: another
 * process runs those jobs again. Recurring jobs are enqueued once per period across all processes.
 */
export function createJobs(options: JobsOptions) {
  const { db, log } = options;
  const now = options.now ?? (() => new Date());
  const pollMs = options.pollMs ?? DEFAULTS.pollMs;
  const concurrency = options.concurrency ?? DEFAULTS.concurrency;
  const stopGraceMs = options.stopGraceMs ?? DEFAULTS.stopGraceMs;
  /** This process's name in `locked_by`: a claim is (worker, attempt). */
  const workerId = `${os.hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  // The handlers' payload types are their own business: the registry holds them all.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const definitions = new Map<string, JobDefinition<any>>();
  const schedules = new Map<string, Schedule>();
  const running = new Map<number, Running>();
  /** Claims on their way to the database: until they answer, a job may be about to run here (see runUntilIdle). */
  const claiming = new Set<Promise<unknown>>();
  let started = false;
  let stopped = false;
  let timer: NodeJS.Timeout | null = null;
  let pass: Promise<void> | null = null;
  let again = false;
  /** Set while the database does not answer: logged when it starts and when it ends, not at every poll. */
  let unreachableSince: Date | null = null;

  const later = (ms: number) => new Date(now().getTime() + ms);

  function definitionOf(kind: string) {
    const definition = definitions.get(kind);
    if (!definition) throw new Error(`No job kind "${kind}" is registered`);
    return definition;
  }

  function databaseTrouble(error: unknown) {
    if (unreachableSince) return;
    unreachableSince = now();
    log.warn({ err: error }, 'job engine: the database did not answer; trying again');
  }

  function databaseBack() {
    if (!unreachableSince) return;
    log.info({ downMs: now().getTime() - unreachableSince.getTime() }, 'job engine: the database answers again');
    unreachableSince = null;
  }

  /** Claims due jobs of `kinds` and starts them; resolves with their runs once each is in `running`. */
  function claimAndLaunch(kinds: string[], limit: number): Promise<Promise<void>[]> {
    if (kinds.length === 0 || limit <= 0) return Promise.resolve([]);
    const claimed = (async () => {
      const at = now();
      const leaseUntil = new Map(kinds.map((kind) => [kind, new Date(at.getTime() + definitionOf(kind).leaseMs)]));
      const rows = await repo.claimDue(db, { leaseUntil, now: at, limit, lockedBy: workerId });
      databaseBack();
      return rows.map(launch);
    })();
    claiming.add(claimed);
    const done = () => claiming.delete(claimed);
    claimed.then(done, done);
    return claimed;
  }

  /** Runs a claimed job to its outcome; never throws. */
  function launch(row: repo.JobRow): Promise<void> {
    const controller = new AbortController();
    const promise = execute(row, controller)
      .catch((error: unknown) => log.error({ err: error, jobId: row.id, kind: row.kind }, 'job engine error'))
      .finally(() => {
        running.delete(row.id);
        // A slot is free: look for more (the commit that enqueued them may have nudged while every slot was busy).
        if (started && !stopped) runPass();
      });
    running.set(row.id, { kind: row.kind, promise, controller });
    return promise;
  }

  async function execute(row: repo.JobRow, controller: AbortController): Promise<void> {
    const definition = definitionOf(row.kind);
    const claimOf: repo.Claim = { id: row.id, lockedBy: workerId, attempts: row.attempts };
    const context = { jobId: row.id, kind: row.kind, ...safeLogContext(definition, row.payload) };
    if (row.attempts > definition.maxAttempts) {
      // Claimed again after its workers kept dying (or hanging) with it: no more tries.
      const reason = row.lastError ?? 'Its worker stopped before finishing, at every attempt.';
      await repo.finish(db, claimOf, 'dead', now(), reason);
      log.error({ ...context, attempts: row.attempts - 1, reason }, `${definition.what} given up`);
      return;
    }
    const renew = async () => {
      try {
        const state = await repo.renewClaim(db, claimOf, later(definition.leaseMs));
        if (!state) controller.abort(new ClaimLost());
        else if (state.cancelRequested) controller.abort(new JobCancelled());
      } catch {
        // The database is away: the handler goes on; if it stays away, the claim expires and another worker retries.
      }
    };
    const renewal = setInterval(() => void renew(), Math.max(10, Math.floor(definition.leaseMs / 3)));
    renewal.unref();
    const jobContext: JobContext = {
      job: { id: row.id, kind: row.kind, attempt: row.attempts, maxAttempts: definition.maxAttempts },
      signal: controller.signal,
      async progress(value) {
        if (!(await repo.setProgress(db, claimOf, value))) controller.abort(new ClaimLost());
        else await renew();
      },
      now,
    };
    try {
      await definition.handler(row.payload, jobContext);
      if (controller.signal.reason instanceof ClaimLost) {
        log.warn(context, `${definition.what}: finished after its claim was lost`);
        return;
      }
      if (!(await repo.finish(db, claimOf, 'done', now(), null))) {
        log.warn(context, `${definition.what}: finished after its claim was lost`);
      } else if (row.lastError !== null) {
        log.info({ ...context, attempts: row.attempts }, `${definition.what} succeeded after a retry`);
      }
    } catch (error) {
      await failed(row, definition, claimOf, controller.signal.reason, error, context);
    } finally {
      clearInterval(renewal);
    }
  }

  async function failed(
    row: repo.JobRow,
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    definition: JobDefinition<any>,
    claimOf: repo.Claim,
    abortReason: unknown,
    error: unknown,
    context: Record<string, unknown>,
  ) {
    if (abortReason instanceof JobCancelled) {
      await repo.finish(db, claimOf, 'cancelled', now(), null);
      log.info(context, `${definition.what} cancelled`);
      return;
    }
    if (abortReason instanceof ClaimLost) {
      log.warn(context, `${definition.what}: stopped, its claim was lost`);
      return;
    }
    if (abortReason instanceof EngineStopping) {
      // Not its fault: given back uncounted, due at once for whichever process is still running.
      await repo.release(db, claimOf);
      return;
    }
    const reason = errorText(error);
    if (row.attempts >= definition.maxAttempts || definition.isPermanent?.(error)) {
      await repo.finish(db, claimOf, 'dead', now(), reason);
      log.error({ ...context, attempts: row.attempts, reason }, `${definition.what} given up`);
      return;
    }
    const delay = backoffDelay(row.attempts, definition.backoff);
    await repo.retryLater(db, claimOf, later(delay), reason);
    // Logged when the job starts failing; its later retries are quiet (last_error keeps the latest reason).
    if (row.lastError === null) {
      log.warn({ ...context, reason, retryInMs: delay }, `${definition.what} failed; retrying with backoff`);
    }
  }

  /** One background pass: claims as many due jobs as there are free slots. A nudge during a pass makes it look again. */
  function runPass(): void {
    if (pass) {
      again = true;
      return;
    }
    pass = (async () => {
      do {
        again = false;
        const free = concurrency - running.size;
        if (free <= 0) return;
        const launched = await claimAndLaunch([...definitions.keys()], free);
        if (launched.length === free) again = true; // there may be more
      } while (again && !stopped);
    })()
      .catch(databaseTrouble)
      .finally(() => {
        pass = null;
        // A nudge that came after the loop's last look gets its own pass.
        if (again && started && !stopped) runPass();
      });
  }

  /** Enqueues each recurring job whose period came, once across all processes (see `repo.takeSchedule`). */
  async function runSchedules(kinds?: string[]): Promise<void> {
    for (const schedule of schedules.values()) {
      if (kinds && !kinds.includes(schedule.kind)) continue;
      const at = now();
      if (schedule.knownNextRunAt && at < schedule.knownNextRunAt) continue;
      const periodStart = Math.floor(at.getTime() / schedule.everyMs) * schedule.everyMs;
      const next = new Date(periodStart + schedule.everyMs);
      if (!schedule.knownNextRunAt) await repo.ensureSchedule(db, schedule.name, next);
      const taken = await db.transaction(async (tx) => {
        if (!(await repo.takeSchedule(tx, schedule.name, at, next))) return false;
        await enqueue(tx, schedule.kind, schedule.payload, {
          dedupeKey: `${schedule.name}@${new Date(periodStart).toISOString()}`,
        });
        return true;
      });
      // Whoever took this period moved the next run to the same boundary.
      schedule.knownNextRunAt = taken ? next : ((await repo.scheduleNextRun(db, schedule.name)) ?? next);
    }
  }

  async function tick() {
    try {
      await runSchedules();
    } catch (error) {
      databaseTrouble(error);
    }
    runPass();
  }

  async function enqueue(
    tx: DbOrTx,
    kind: string,
    payload: object,
    enqueueOptions: EnqueueOptions = {},
  ): Promise<number | null> {
    definitionOf(kind); // a typo is a bug, not a job nobody will ever run
    return repo.insertJob(tx, {
      kind,
      payload: payload as Record<string, unknown>,
      runAt: enqueueOptions.runAt ?? now(),
      dedupeKey: enqueueOptions.dedupeKey ?? null,
    });
  }

  return {
    /** This process's worker name (in `locked_by`). */
    workerId,

    /** The engine's clock: what `run_at` is compared with. */
    now,

    /** Adds a kind (at composition, before `start`). */
    register<P extends Record<string, unknown>>(definition: JobDefinition<P>): void {
      if (definitions.has(definition.kind)) throw new Error(`Job kind "${definition.kind}" is registered twice`);
      definitions.set(definition.kind, definition);
    },

    /**
     * A recurring job: `kind` with `payload` once per `everyMs` period (aligned to the epoch: daily runs at 00:00 UTC)
     * across all processes, from the first period boundary after the schedule was first seen.
     */
    schedule(name: string, kind: string, everyMs: number, payload: Record<string, unknown> = {}): void {
      definitionOf(kind);
      if (!(everyMs > 0)) throw new Error('A schedule needs a positive period');
      schedules.set(name, { name, kind, everyMs, payload, knownNextRunAt: null });
    },

    /** Inserts a job in the caller's transaction: it exists exactly when the caller's work committed. */
    enqueue,

    /** After the enqueuing transaction committed: run due jobs now rather than at the next poll. Never throws. */
    nudge(): void {
      if (started && !stopped) runPass();
    },

    /** Starts the worker: a poll every `pollMs` (unref'd: it never keeps the process alive), and one pass now. */
    start(): void {
      if (started || stopped) return;
      started = true;
      timer = setInterval(() => void tick(), pollMs);
      timer.unref();
      void tick();
    },

    /**
     * Stops taking jobs, lets running handlers finish for `stopGraceMs`, then aborts the rest and gives their claims
     * back (due at once elsewhere). Called on app close, before the database closes.
     */
    async stop(): Promise<void> {
      stopped = true;
      if (timer) clearInterval(timer);
      timer = null;
      await pass?.catch(() => undefined);
      const settled = () => Promise.allSettled([...running.values()].map((job) => job.promise));
      if (running.size === 0) return;
      let grace: NodeJS.Timeout | undefined;
      await Promise.race([settled(), new Promise((resolve) => (grace = setTimeout(resolve, stopGraceMs)))]);
      clearTimeout(grace);
      if (running.size === 0) return;
      for (const job of running.values()) job.controller.abort(new EngineStopping());
      await settled();
    },

    /**
     * Runs every due job of `kinds` (all by default) in this process until none is due, waiting for those already
     * running here, and the recurring jobs whose period came. With `waitForRetriesMs`, also waits for a retry (or a job
     * another worker holds) due within that time of the moment nothing else is due: the window starts again after
     * each attempt, so a slow machine does not cut a short chain of retries off. Tests; a drain.
     */
    async runUntilIdle(runOptions: { kinds?: string[]; waitForRetriesMs?: number } = {}): Promise<void> {
      const kinds = runOptions.kinds ?? [...definitions.keys()];
      const window = runOptions.waitForRetriesMs ?? 0;
      await runSchedules(kinds);
      for (;;) {
        if (stopped) return;
        // A claim of this process still on its way (a nudge's pass) may hold a due job: SKIP LOCKED would hide it.
        if (claiming.size > 0) {
          await Promise.allSettled([...claiming]);
          continue;
        }
        const mine = [...running.values()].filter((job) => kinds.includes(job.kind));
        if (mine.length > 0) {
          await Promise.allSettled(mine.map((job) => job.promise));
          continue;
        }
        const launched = await claimAndLaunch(kinds, concurrency);
        if (launched.length > 0) {
          await Promise.allSettled(launched);
          continue;
        }
        if (window <= 0) return;
        const wake = await repo.nextWake(db, kinds);
        if (!wake || wake.getTime() - now().getTime() > window) return;
        const wait = Math.min(250, Math.max(5, wake.getTime() - now().getTime()));
        await new Promise((resolve) => setTimeout(resolve, wait));
      }
    },

    /** Cancels a queued job, or asks a running one to stop (its handler's signal aborts). Null: already over. */
    async cancel(id: number): Promise<'cancelled' | 'cancelling' | null> {
      const outcome = await repo.cancel(db, id, now());
      if (outcome === 'cancelling') running.get(id)?.controller.abort(new JobCancelled());
      return outcome;
    },

    /** A job's state and progress, for whoever enqueued it. */
    async find(id: number): Promise<JobView | null> {
      const row = await repo.findJob(db, id);
      return row
        ? {
            id: row.id,
            kind: row.kind,
            status: row.status,
            attempts: row.attempts,
            progress: row.progress,
            lastError: row.lastError,
            createdAt: row.createdAt,
            finishedAt: row.finishedAt,
          }
        : null;
    },

    /** Staff's one line for a job (the kind's own description, never its payload). */
    describe(row: Pick<repo.JobRow, 'kind' | 'payload'>): string {
      const definition = definitions.get(row.kind);
      if (!definition) return row.kind;
      try {
        return definition.describe(row.payload);
      } catch {
        return row.kind;
      }
    },

    /** The kind's attempts before it is dead (null for a kind this version does not know). */
    maxAttemptsOf: (kind: string): number | null => definitions.get(kind)?.maxAttempts ?? null,
  };
}
export type Jobs = ReturnType<typeof createJobs>;

// eslint-disable-next-line @typescript-eslint/no-explicit-any
function safeLogContext(definition: JobDefinition<any>, payload: Record<string, unknown>) {
  try {
    return definition.logContext?.(payload) ?? {};
  } catch {
    return {};
  }
}

/** A failure as staff and logs see it: no secrets, no query strings, bounded. */
export function errorText(error: unknown): string {
  const text = error instanceof Error ? error.message || error.name : String(error);
  return redactSecrets(text)
    .replace(/(https?:\/\/[^\s?#"']+)[?#][^\s"']*/g, '$1')
    .slice(0, MAX_ERROR_LENGTH);
}
