/**
 * The database of one test worker (ADR 040): each worker process gets its own copy of the template that the server
 * project's global setup (test/global-setup.ts) migrated once, so test files run in parallel without sharing tables.
 */
import fs from 'node:fs/promises';
import { PGlite } from '@electric-sql/pglite';
import { drizzle } from 'drizzle-orm/pglite';
import pg from 'pg';
import { openDatabase, type Database, type Db } from '../../src/db/client';
import * as schema from '../../src/db/schema';

/** What the global setup hands every worker of a server project (vitest `provide`/`inject`). */
export type TestDatabase = { kind: 'pglite'; template: string } | { kind: 'postgres'; url: string; template: string };

declare module 'vitest' {
  export interface ProvidedContext {
    /** Set in vitest.config.ts per server project. */
    testDatabaseKind: 'pglite' | 'postgres';
    /** Set by test/global-setup.ts. */
    testDatabase: TestDatabase;
  }
}

const NAME = /^[A-Za-z0-9_]+$/;

function databaseName(url: string): string {
  const name = decodeURIComponent(new URL(url).pathname.slice(1));
  if (!NAME.test(name))
    throw new Error(`TEST_DATABASE_URL must name a database of letters, digits and _ (got "${name}")`);
  return name;
}

/** `url` pointing at the database `name` on the same server. */
export function databaseUrlFor(url: string, name: string): string {
  const target = new URL(url);
  target.pathname = `/${name}`;
  return target.toString();
}

export const postgresTemplateName = (url: string) => `${databaseName(url)}_template`;
export const workerDatabasePrefix = (url: string) => `${databaseName(url)}_p`;

/** The URL of this worker process's PostgreSQL database (it may not exist yet: see createWorkerDatabase). */
export function workerDatabaseUrl(database: Extract<TestDatabase, { kind: 'postgres' }>): string {
  return databaseUrlFor(database.url, `${workerDatabasePrefix(database.url)}${process.pid}`);
}

/** PostgreSQL refuses to copy a template while another session copies it: "source database … is being accessed". */
const TEMPLATE_BUSY = '55006';

let created: Promise<void> | null = null;

/** Creates this worker's PostgreSQL database from the migrated template (once per process). */
export function createWorkerDatabase(database: Extract<TestDatabase, { kind: 'postgres' }>): Promise<void> {
  created ??= createFromTemplate(database).catch((error: unknown) => {
    created = null;
    throw error;
  });
  return created;
}

async function createFromTemplate(database: Extract<TestDatabase, { kind: 'postgres' }>): Promise<void> {
  const name = new URL(workerDatabaseUrl(database)).pathname.slice(1);
  const admin = new pg.Client({ connectionString: database.url });
  await admin.connect();
  try {
    const { rowCount } = await admin.query('select 1 from pg_database where datname = $1', [name]);
    if (rowCount) return;
    for (let attempt = 1; ; attempt++) {
      try {
        await admin.query(`create database "${name}" template "${database.template}"`);
        return;
      } catch (error) {
        if ((error as { code?: string }).code !== TEMPLATE_BUSY || attempt === 50) throw error;
        await new Promise((resolve) => setTimeout(resolve, 50 * attempt));
      }
    }
  } finally {
    await admin.end();
  }
}

/** Opens this worker's database: a PGlite loaded from the template's dump, or its own PostgreSQL database. */
export async function openWorkerDatabase(database: TestDatabase): Promise<Database> {
  if (database.kind === 'postgres') {
    await createWorkerDatabase(database);
    // Through the product's path: the migrations it finds are all applied already.
    return openDatabase({ kind: 'postgres', url: workerDatabaseUrl(database) });
  }
  const client = new PGlite({ loadDataDir: new Blob([await fs.readFile(database.template)]) });
  let closed = false;
  return {
    db: drizzle(client, { schema }) as unknown as Db,
    kind: 'pglite',
    close: async () => {
      if (closed) return;
      closed = true;
      await client.close();
    },
  };
}
