import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, expect, inject } from 'vitest';
import { buildApp } from '../../src/app';
import { loadConfig } from '../../src/config';
import type { Database, Db } from '../../src/db/client';
import { users } from '../../src/db/schema';
import type { Adapters } from '../../src/services';
import { openWorkerDatabase } from './test-database';

let database: Promise<Database> | null = null;

/**
 * The apps still open, with the test file that built each. A server worker runs its files one after another in one
 * process (`isolate: false`), so an app a file left open (one built in a `beforeAll`: vitest ignores the `afterAll`
 * registered there) would keep its background workers going on the worker's database while the next file runs, and
 * take that file's jobs (a sandbox's events delivered to the old app's webhook). test/setup.ts closes them before each
 * file (`closeAppsOfEarlierFiles`), and a file's first app closes those of other files.
 */
const openApps = new Map<FastifyInstance, string | undefined>();

/** Before a test file runs: every app still open was built by an earlier file. */
export async function closeAppsOfEarlierFiles(): Promise<void> {
  await closeAppsOfOtherFiles(undefined);
}

async function closeAppsOfOtherFiles(file: string | undefined): Promise<void> {
  for (const [app, owner] of openApps) {
    if (file !== undefined && owner === file) continue;
    openApps.delete(app);
    await app.close();
  }
}

/**
 * One database per test worker (ADR 040): an in-memory PGlite loaded from the migrated template, or on PostgreSQL
 * (TEST_DATABASE_URL) the worker's own copy of the template. Each test app starts from empty tables.
 */
export function getTestDatabase(): Promise<Database> {
  database ??= openWorkerDatabase(inject('testDatabase'));
  return database;
}

export async function resetDatabase(db: Db): Promise<void> {
  const result: unknown = await db.execute(sql`select tablename from pg_tables where schemaname = 'public'`);
  // node-postgres and PGlite both answer { rows }.
  const rows = (result as { rows: { tablename: string }[] }).rows;
  if (rows.length === 0) return;
  const names = rows.map((row) => `"${row.tablename}"`).join(', ');
  await db.execute(sql.raw(`truncate table ${names} restart identity cascade`));
}

export interface TestApp {
  app: FastifyInstance;
  db: Db;
}

/** The config every test app runs with (no seed, no web build, silent logs), `env` on top: parsed as users' is. */
export function testConfig(env: Record<string, string> = {}) {
  return loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    SEED: 'false',
    DATA_DIR: path.join(os.tmpdir(), `keyport-test-${process.pid}`),
    WEB_DIST_DIR: path.join(os.tmpdir(), 'keyport-no-web-dist'),
    ...env,
  });
}

/** Builds the app on a freshly emptied database, with the same config parsing users get. */
export async function createTestApp(
  env: Record<string, string> = {},
  adapters: Adapters = {},
  logDestination?: NodeJS.WritableStream,
): Promise<TestApp> {
  const file = expect.getState().testPath;
  await closeAppsOfOtherFiles(file);
  const { db } = await getTestDatabase();
  await resetDatabase(db);
  const config = testConfig(env);
  const app = await buildApp(config, { db, adapters, logDestination });
  app.addHook('onClose', async () => {
    openApps.delete(app);
  });
  await app.ready();
  openApps.set(app, file);
  // Runs when the file's tests end if this is called from the file's body or a test; from a `beforeAll` vitest
  // ignores it, and the next file's first app closes this one (above).
  afterAll(() => app.close());
  return { app, db };
}

/** Signs up a user through the API and returns its session token (optionally with a role set). */
export async function signUp(
  testApp: TestApp,
  email: string,
  options: { role?: string; password?: string; ip?: string } = {},
): Promise<{ token: string; id: number }> {
  const response = await testApp.app.inject({
    method: 'POST',
    url: '/auth/signup',
    payload: { email, password: options.password ?? 'correct-horse-battery', name: email.split('@')[0] },
    ...(options.ip ? { remoteAddress: options.ip } : {}),
  });
  if (response.statusCode !== 201) throw new Error(`signup failed: ${response.body}`);
  const body = response.json<{ token: string; user: { id: number } }>();
  if (options.role)
    await testApp.db
      .update(users)
      .set({ role: options.role })
      .where(sql`${users.id} = ${body.user.id}`);
  return { token: body.token, id: body.user.id };
}

export const auth = (token: string) => ({ authorization: `Token ${token}` });
