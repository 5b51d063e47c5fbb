/**
 * Issue 19 "Survives faults": PostgreSQL restarting or out of reach never takes the portal down. Each portal here has
 * its own pool (as a process has), named by `application_name` so the test can end exactly its connections with
 * `pg_terminate_backend` — what a restart does to them ("terminating connection due to administrator command") —
 * without touching the shared server; "away for a while" is a TCP proxy between the portal and PostgreSQL, cut and
 * restored. Runs with TEST_DATABASE_URL.
 */
import { PassThrough } from 'node:stream';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildApp } from '../src/app';
import { openDatabase, type Database } from '../src/db/client';
import { DATABASE_UNAVAILABLE } from '../src/http/database-unavailable';
import { startTcpProxy, type TcpProxy } from './helpers/tcp-proxy';
import { auth, createTestApp, signUp, testConfig, type TestApp } from './helpers/test-app';

const databaseUrl = process.env.TEST_DATABASE_URL;

function withApplicationName(url: string, name: string): string {
  const parsed = new URL(url);
  parsed.searchParams.set('application_name', name);
  return parsed.toString();
}

interface Portal {
  app: FastifyInstance;
  database: Database;
  lost: Error[];
  logs: Record<string, unknown>[];
}

async function startPortal(url: string): Promise<Portal> {
  const lost: Error[] = [];
  const logs: Record<string, unknown>[] = [];
  const destination = new PassThrough();
  destination.on('data', (chunk: Buffer) => {
    for (const line of chunk.toString('utf8').split('\n')) if (line.trim()) logs.push(JSON.parse(line));
  });
  const database = await openDatabase({ kind: 'postgres', url }, { onConnectionLost: (error) => lost.push(error) });
  // The job engine polls often here: an outage of a second spans many polls (it must not log each one).
  const app = await buildApp(testConfig({ LOG_LEVEL: 'info' }), {
    db: database.db,
    adapters: { jobs: { pollMs: 50 } },
    logDestination: destination,
  });
  await app.ready();
  return { app, database, lost, logs };
}

describe.skipIf(!databaseUrl)('PostgreSQL faults', () => {
  let t: TestApp;
  let token: string;
  const portals: Portal[] = [];
  let proxy: TcpProxy | null = null;

  beforeAll(async () => {
    t = await createTestApp(); // empties the tables; its pool is the test's own, for the fault's SQL
    ({ token } = await signUp(t, 'through-faults@example.com'));
  });

  afterAll(async () => {
    await proxy?.restore().catch(() => undefined);
    for (const portal of portals) {
      await portal.app.close(); // its job engine and routes are stopped here
      // Its pool ends: every connection went back, the ones whose transaction could not begin during the outage
      // included (ADR 050; before it, end() could wait forever for a connection drizzle never released).
      await portal.database.close();
    }
    await proxy?.close();
  });

  const myKeys = (app: FastifyInstance) => app.inject({ method: 'GET', url: '/keys/', headers: auth(token) });

  it('stays up when PostgreSQL ends its connections: a request caught in it gets 503 with Retry-After, the next ones are served', async () => {
    const name = `keyport-fault-${process.pid}`;
    const portal = await startPortal(withApplicationName(databaseUrl!, name));
    portals.push(portal);
    const { app } = portal;
    // Several connections open and idle in the pool.
    const warm = await Promise.all(Array.from({ length: 5 }, () => myKeys(app)));
    expect(warm.map((response) => response.statusCode)).toEqual([200, 200, 200, 200, 200]);

    let caught: Awaited<ReturnType<typeof myKeys>> | null = null;
    await t.db.transaction(async (tx) => {
      // A request of the portal waits on this lock, so it is in flight when its connection is ended.
      await tx.execute(sql`lock table license_keys in access exclusive mode`);
      const inFlight = myKeys(app).then((response) => (caught = response));
      await vi.waitFor(
        async () => {
          const result = await t.db.execute(
            sql`select count(*)::int as waiting from pg_stat_activity where application_name = ${name} and wait_event_type = 'Lock'`,
          );
          expect((result as unknown as { rows: { waiting: number }[] }).rows[0]!.waiting).toBe(1);
        },
        { timeout: 10_000, interval: 50 },
      );
      // What `pg_ctl restart -m fast` does to every connection of the portal.
      await t.db.execute(
        sql`select pg_terminate_backend(pid) from pg_stat_activity where datname = current_database() and application_name = ${name}`,
      );
      await inFlight;
    });

    expect(caught!.statusCode).toBe(503);
    expect(caught!.headers['retry-after']).toBe('5');
    expect(caught!.json()).toEqual({ error: DATABASE_UNAVAILABLE, code: 'unavailable' });
    // The idle connections were ended too: the pool said so, and nothing crashed.
    await vi.waitFor(() => expect(portal.lost.length).toBeGreaterThan(0));
    expect(portal.lost[0]!.message).toBe('terminating connection due to administrator command');
    // Served again at once, by the same process: the pool opened new connections.
    expect((await myKeys(app)).statusCode).toBe(200);
    expect((await app.inject({ method: 'GET', url: '/health' })).statusCode).toBe(200);
  });

  it('answers 503 with Retry-After while PostgreSQL is out of reach, and serves again when it returns, without a restart', async () => {
    const target = new URL(databaseUrl!);
    proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port || 5432) });
    const viaProxy = new URL(databaseUrl!);
    viaProxy.host = `127.0.0.1:${proxy.port}`;
    const portal = await startPortal(viaProxy.toString());
    portals.push(portal);
    const { app, logs } = portal;
    expect((await myKeys(app)).statusCode).toBe(200);

    await proxy.cut();
    const during = await Promise.all([
      myKeys(app),
      myKeys(app),
      app.inject({
        method: 'POST',
        url: '/auth/login',
        payload: { email: 'through-faults@example.com', password: 'correct-horse-battery' },
      }),
      app.inject({ method: 'GET', url: '/health' }),
    ]);
    for (const response of during) {
      expect(response.statusCode, response.body).toBe(503);
      expect(response.headers['retry-after']).toBe('5');
      expect(response.json<{ code: string }>().code).toBe('unavailable');
    }
    // The job engine polls every 50 ms: let it meet the outage many times.
    await vi.waitFor(() =>
      expect(logs.some((line) => String(line.msg).startsWith('job engine: the database did not answer'))).toBe(true),
    );
    await new Promise((resolve) => setTimeout(resolve, 500));

    await proxy.restore();
    await vi.waitFor(async () => expect((await myKeys(app)).statusCode).toBe(200), { timeout: 15_000, interval: 200 });
    expect((await app.inject({ method: 'GET', url: '/health' })).statusCode).toBe(200);
    await vi.waitFor(() =>
      expect(logs.some((line) => line.msg === 'job engine: the database answers again')).toBe(true),
    );
    // Logged when it started and when it ended, not at each of its polls.
    expect(logs.filter((line) => String(line.msg).startsWith('job engine: the database did not answer'))).toHaveLength(
      1,
    );
  });
});
