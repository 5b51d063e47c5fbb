/**
 * The job engine (ADR 038) on a real database (PGlite, or PostgreSQL with TEST_DATABASE_URL): jobs enqueued in the
 * caller's transaction, claimed by one worker of several, retried with backoff, dead-lettered, reclaimed from a worker
 * that stopped, kept by a worker that renews its lease, cancelled, reporting progress, and recurring once per period
 * across workers. Two engines on one database stand for two processes.
 */
import { eq } from 'drizzle-orm';
import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Db } from '../src/db/client';
import { jobSchedules, jobs as jobsTable } from '../src/db/schema';
import { createJobs, type JobDefinition, type Jobs } from '../src/modules/jobs/jobs.service';
import { getTestDatabase, resetDatabase } from './helpers/test-app';

let db: Db;
let clock: number;
let lines: { level: string; data: Record<string, unknown>; msg: string }[];

const log = {
  info: (data: Record<string, unknown>, msg: string) => lines.push({ level: 'info', data, msg }),
  warn: (data: Record<string, unknown>, msg: string) => lines.push({ level: 'warn', data, msg }),
  error: (data: Record<string, unknown>, msg: string) => lines.push({ level: 'error', data, msg }),
} as never;

/** An engine that never polls by itself: each test says when it works (`runUntilIdle`), unless it calls `start`. */
function engine(options: { clock?: boolean; stopGraceMs?: number } = {}): Jobs {
  return createJobs({
    db,
    log,
    now: options.clock === false ? undefined : () => new Date(clock),
    pollMs: 3_600_000,
    stopGraceMs: options.stopGraceMs,
  });
}

function kind(name: string, handler: JobDefinition['handler'], overrides: Partial<JobDefinition> = {}): JobDefinition {
  return {
    kind: name,
    what: `${name} job`,
    handler,
    maxAttempts: 3,
    backoff: { baseMs: 1_000, maxMs: 60_000 },
    leaseMs: 60_000,
    describe: (payload) => `${name} #${String(payload.n)}`,
    ...overrides,
  };
}

const rowsOf = (name: string) => db.select().from(jobsTable).where(eq(jobsTable.kind, name));
const one = async (name: string) => {
  const rows = await rowsOf(name);
  expect(rows).toHaveLength(1);
  return rows[0]!;
};

beforeAll(async () => {
  ({ db } = await getTestDatabase());
});
beforeEach(async () => {
  await resetDatabase(db);
  clock = Date.parse('2026-05-04T10:00:00Z');
  lines = [];
});

describe('enqueue', () => {
  it("exists exactly when the caller's transaction commits, and runs once", async () => {
    const jobs = engine();
    const seen: unknown[] = [];
    jobs.register(kind('test.tx', async (payload) => void seen.push(payload.n)));
    await expect(
      db.transaction(async (tx) => {
        await jobs.enqueue(tx, 'test.tx', { n: 1 });
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    await db.transaction((tx) => jobs.enqueue(tx, 'test.tx', { n: 2 }));
    await jobs.runUntilIdle();
    await jobs.runUntilIdle();
    expect(seen).toEqual([2]);
    expect(await one('test.tx')).toMatchObject({ status: 'done', attempts: 1, lastError: null, lockedBy: null });
  });

  it('drops a second enqueue with the same dedupe key, and waits for runAt', async () => {
    const jobs = engine();
    const seen: unknown[] = [];
    jobs.register(kind('test.dedupe', async (payload) => void seen.push(payload.n)));
    expect(await jobs.enqueue(db, 'test.dedupe', { n: 1 }, { dedupeKey: 'once' })).toEqual(expect.any(Number));
    expect(await jobs.enqueue(db, 'test.dedupe', { n: 2 }, { dedupeKey: 'once' })).toBeNull();
    await jobs.enqueue(db, 'test.dedupe', { n: 3 }, { runAt: new Date(clock + 60_000) });
    await jobs.runUntilIdle();
    expect(seen).toEqual([1]);
    clock += 60_000;
    await jobs.runUntilIdle();
    expect(seen).toEqual([1, 3]);
  });

  it('refuses a kind nobody registered (a typo is a bug)', async () => {
    await expect(engine().enqueue(db, 'test.nobody', {})).rejects.toThrow('No job kind "test.nobody"');
  });
});

describe('failures', () => {
  it('retries with exponential backoff, then is dead with its last error, logged when it starts failing and when given up', async () => {
    const jobs = engine();
    let calls = 0;
    jobs.register(
      kind('test.flaky', async () => {
        calls += 1;
        throw new Error(`down (call ${calls}) https://example.com/reset?token=abc123`);
      }),
    );
    await jobs.enqueue(db, 'test.flaky', { n: 1 });
    await jobs.runUntilIdle();
    expect(await one('test.flaky')).toMatchObject({ status: 'queued', attempts: 1 });
    expect((await one('test.flaky')).runAt.getTime()).toBe(clock + 1_000);
    clock += 999;
    await jobs.runUntilIdle();
    expect(calls).toBe(1); // not due yet
    clock += 1;
    await jobs.runUntilIdle();
    expect((await one('test.flaky')).runAt.getTime()).toBe(clock + 2_000); // doubled
    clock += 2_000;
    await jobs.runUntilIdle();
    const dead = await one('test.flaky');
    expect(calls).toBe(3);
    expect(dead).toMatchObject({ status: 'dead', attempts: 3, lockedBy: null });
    // The query string (a reset token) never reaches the row or the logs.
    expect(dead.lastError).toBe('down (call 3) https://example.com/reset');
    expect(lines.map((line) => `${line.level} ${line.msg}`)).toEqual([
      'warn test.flaky job failed; retrying with backoff',
      'error test.flaky job given up',
    ]);
    expect(JSON.stringify(lines)).not.toContain('abc123');
    clock += 3_600_000;
    await jobs.runUntilIdle();
    expect(calls).toBe(3); // dead stays dead
  });

  it('gives a job up at once when its kind says the failure is permanent', async () => {
    const jobs = engine();
    jobs.register(
      kind(
        'test.refused',
        async () => {
          throw new RangeError('refused');
        },
        { isPermanent: (error) => error instanceof RangeError, maxAttempts: 10 },
      ),
    );
    await jobs.enqueue(db, 'test.refused', { n: 1 });
    await jobs.runUntilIdle();
    expect(await one('test.refused')).toMatchObject({ status: 'dead', attempts: 1, lastError: 'refused' });
  });

  it('logs a success after failures', async () => {
    const jobs = engine();
    let calls = 0;
    jobs.register(
      kind('test.recovers', async () => {
        if (++calls === 1) throw new Error('once');
      }),
    );
    await jobs.enqueue(db, 'test.recovers', { n: 1 });
    await jobs.runUntilIdle();
    clock += 1_000;
    await jobs.runUntilIdle();
    expect(await one('test.recovers')).toMatchObject({ status: 'done', attempts: 2, lastError: null });
    expect(lines.at(-1)).toMatchObject({ level: 'info', msg: 'test.recovers job succeeded after a retry' });
  });
});

it('runUntilIdle with a retry window sees a chain of slow attempts through: the window starts when nothing is due', async () => {
  // Attempts slower than the window (a loaded machine): a window counted from the call cut the chain after one.
  const jobs = engine({ clock: false });
  let calls = 0;
  jobs.register(
    kind(
      'test.slow-retries',
      async () => {
        await new Promise((resolve) => setTimeout(resolve, 300));
        if (++calls < 4) throw new Error(`attempt ${calls} failed`);
      },
      { maxAttempts: 4, backoff: { baseMs: 100, maxMs: 100 } },
    ),
  );
  await jobs.enqueue(db, 'test.slow-retries', { n: 1 });
  await jobs.runUntilIdle({ kinds: ['test.slow-retries'], waitForRetriesMs: 200 });
  expect(calls).toBe(4);
  expect(await one('test.slow-retries')).toMatchObject({ status: 'done', attempts: 4 });
});

describe('two workers on one database', () => {
  it('run each of 60 jobs exactly once, whichever claims it', async () => {
    const runs = new Map<number, string[]>();
    const make = (name: string) => {
      const jobs = engine();
      jobs.register(
        kind('test.split', async (payload) => {
          await new Promise((resolve) => setTimeout(resolve, 1));
          const n = Number(payload.n);
          runs.set(n, [...(runs.get(n) ?? []), name]);
        }),
      );
      return jobs;
    };
    const a = make('a');
    const b = make('b');
    await db.transaction(async (tx) => {
      for (let n = 0; n < 60; n++) await a.enqueue(tx, 'test.split', { n });
    });
    await Promise.all([a.runUntilIdle(), b.runUntilIdle(), a.runUntilIdle(), b.runUntilIdle()]);
    expect(runs.size).toBe(60);
    expect([...runs.values()].every((workers) => workers.length === 1)).toBe(true);
    expect((await rowsOf('test.split')).every((row) => row.status === 'done' && row.attempts === 1)).toBe(true);
  });

  it("take over a job whose worker stopped answering once its lease ends; the first worker's late finish is refused", async () => {
    const a = engine();
    const b = engine();
    let release!: () => void;
    const ran: string[] = [];
    a.register(
      kind('test.lease', async () => {
        ran.push('a');
        await new Promise<void>((resolve) => (release = resolve));
      }),
    );
    b.register(kind('test.lease', async () => void ran.push('b')));
    await a.enqueue(db, 'test.lease', { n: 1 });
    const first = a.runUntilIdle();
    await vi.waitFor(() => expect(ran).toEqual(['a']));
    await b.runUntilIdle();
    expect(ran).toEqual(['a']); // A's lease holds
    clock += 60_001; // A stopped renewing (as a killed process does): its lease ended
    await b.runUntilIdle();
    expect(ran).toEqual(['a', 'b']);
    expect(await one('test.lease')).toMatchObject({ status: 'done', attempts: 2 });
    release();
    await first;
    expect(await one('test.lease')).toMatchObject({ status: 'done', attempts: 2 });
    expect(lines.map((line) => line.msg)).toContain('test.lease job: finished after its claim was lost');
  });

  it('do not take a long job from a worker that keeps renewing its lease', async () => {
    // Real time here: the lease is 150 ms and the job runs for several of them.
    const a = engine({ clock: false });
    const b = engine({ clock: false });
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let bRuns = 0;
    a.register(kind('test.long', async () => await released, { leaseMs: 150 }));
    b.register(kind('test.long', async () => void bRuns++, { leaseMs: 150 }));
    await a.enqueue(db, 'test.long', { n: 1 });
    const running = a.runUntilIdle();
    const firstLease = await vi.waitFor(async () => {
      const row = await one('test.long');
      expect(row.status).toBe('running');
      return row.lockedUntil!.getTime();
    });
    // Renewed past its first lease's end at least twice over: well over one lease of running.
    await vi.waitFor(
      async () => expect((await one('test.long')).lockedUntil!.getTime()).toBeGreaterThan(firstLease + 300),
      { timeout: 5_000, interval: 25 },
    );
    await b.runUntilIdle();
    expect(bRuns).toBe(0);
    release();
    await running;
    expect(await one('test.long')).toMatchObject({ status: 'done', attempts: 1 });
  });

  it('enqueue a recurring job once per period, whichever worker looks first', async () => {
    const runs: string[] = [];
    const make = (name: string) => {
      const jobs = engine();
      jobs.register(kind('test.hourly', async () => void runs.push(name)));
      jobs.schedule('test-hourly', 'test.hourly', 3_600_000, { n: 0 });
      return jobs;
    };
    const a = make('a');
    const b = make('b');
    clock = Date.parse('2026-05-04T10:20:00Z');
    await Promise.all([a.runUntilIdle(), b.runUntilIdle()]);
    expect(runs).toEqual([]); // first period boundary after the schedule appeared: 11:00
    clock = Date.parse('2026-05-04T11:00:05Z');
    await Promise.all([a.runUntilIdle(), b.runUntilIdle(), a.runUntilIdle(), b.runUntilIdle()]);
    expect(runs).toHaveLength(1);
    clock = Date.parse('2026-05-04T11:59:00Z');
    await Promise.all([a.runUntilIdle(), b.runUntilIdle()]);
    expect(runs).toHaveLength(1);
    clock = Date.parse('2026-05-04T13:30:00Z'); // a period with nobody running is not made up twice
    await Promise.all([a.runUntilIdle(), b.runUntilIdle()]);
    await Promise.all([a.runUntilIdle(), b.runUntilIdle()]);
    expect(runs).toHaveLength(2);
    const [schedule] = await db.select().from(jobSchedules).where(eq(jobSchedules.name, 'test-hourly'));
    expect(schedule!.nextRunAt.toISOString()).toBe('2026-05-04T14:00:00.000Z');
    expect((await rowsOf('test.hourly')).map((row) => row.dedupeKey)).toEqual([
      'test-hourly@2026-05-04T11:00:00.000Z',
      'test-hourly@2026-05-04T13:00:00.000Z',
    ]);
  });
});

describe('long jobs', () => {
  it('report progress that the owner reads back while it runs', async () => {
    const jobs = engine();
    // Made before the job runs: the first progress can be read back before the job's next line has run.
    let step!: () => void;
    const stepped = new Promise<void>((resolve) => (step = resolve));
    jobs.register(
      kind('test.progress', async (_payload, context) => {
        await context.progress({ done: 1, total: 2 });
        await stepped;
        await context.progress({ done: 2, total: 2 });
      }),
    );
    const id = (await jobs.enqueue(db, 'test.progress', { n: 1 }))!;
    const run = jobs.runUntilIdle();
    await vi.waitFor(async () => expect((await jobs.find(id))?.progress).toEqual({ done: 1, total: 2 }));
    expect((await jobs.find(id))?.status).toBe('running');
    step();
    await run;
    expect(await jobs.find(id)).toMatchObject({ status: 'done', progress: { done: 2, total: 2 } });
  });

  it('are cancelled: a queued one never runs, a running one sees its signal (also when another worker asks)', async () => {
    const a = engine({ clock: false });
    const b = engine({ clock: false });
    const started: number[] = [];
    const long = kind(
      'test.cancel',
      async (payload, context) => {
        started.push(Number(payload.n));
        await new Promise<void>((_resolve, reject) => {
          context.signal.addEventListener('abort', () => reject(new Error('aborted')));
        });
      },
      { leaseMs: 150 },
    );
    a.register(long);
    b.register(long);
    const queued = (await a.enqueue(db, 'test.cancel', { n: 1 }, { runAt: new Date(Date.now() + 3_600_000) }))!;
    expect(await a.cancel(queued)).toBe('cancelled');
    expect(await a.cancel(queued)).toBeNull();

    const here = (await a.enqueue(db, 'test.cancel', { n: 2 }))!;
    const run = a.runUntilIdle();
    await vi.waitFor(() => expect(started).toEqual([2]));
    expect(await a.cancel(here)).toBe('cancelling');
    await run;
    expect((await a.find(here))?.status).toBe('cancelled');

    const elsewhere = (await a.enqueue(db, 'test.cancel', { n: 3 }))!;
    const running = a.runUntilIdle();
    await vi.waitFor(() => expect(started).toEqual([2, 3]));
    expect(await b.cancel(elsewhere)).toBe('cancelling'); // A sees it when it renews its lease
    await running;
    expect((await a.find(elsewhere))?.status).toBe('cancelled');
    expect(started).toEqual([2, 3]);
  });

  it('given back uncounted when the worker stops during one: another worker runs it at once', async () => {
    const a = engine({ stopGraceMs: 20 });
    const b = engine();
    let aStarted = false;
    a.register(
      kind('test.stop', async (_payload, context) => {
        aStarted = true;
        await new Promise<void>((_resolve, reject) =>
          context.signal.addEventListener('abort', () => reject(new Error('stopping'))),
        );
      }),
    );
    let bRuns = 0;
    b.register(kind('test.stop', async () => void bRuns++));
    await a.enqueue(db, 'test.stop', { n: 1 });
    a.start();
    await vi.waitFor(() => expect(aStarted).toBe(true));
    await a.stop();
    expect(await one('test.stop')).toMatchObject({ status: 'queued', attempts: 0, lockedBy: null });
    await b.runUntilIdle();
    expect(bRuns).toBe(1);
    expect(await one('test.stop')).toMatchObject({ status: 'done', attempts: 1 });
  });
});

describe('the background worker', () => {
  it('runs a job after a nudge, and runUntilIdle waits for the one it is running', async () => {
    const jobs = engine();
    // Made before the job runs: its row says "running" from the claim, before the job's own code has run.
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let done = false;
    jobs.register(
      kind('test.nudge', async () => {
        await released;
        done = true;
      }),
    );
    jobs.start();
    await jobs.enqueue(db, 'test.nudge', { n: 1 });
    jobs.nudge();
    await vi.waitFor(async () => expect((await one('test.nudge')).status).toBe('running'));
    const idle = jobs.runUntilIdle();
    release();
    await idle;
    expect(done).toBe(true);
    await jobs.stop();
  });
});
