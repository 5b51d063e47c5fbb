import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import * as schema from './schema';
import { releaseFailedTransactions } from './transaction-release';

/** One type for both drivers, so one repo layer serves PGlite and PostgreSQL. */
export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;
/** A transaction or the database itself: repo methods accept either. */
export type DbOrTx = Parameters<Parameters<Db['transaction']>[0]>[0] | Db;

export type DatabaseConfig = { kind: 'pglite'; dataDir: string | null } | { kind: 'postgres'; url: string };

export interface Database {
  db: Db;
  kind: DatabaseConfig['kind'];
  close(): Promise<void>;
}

/** Where the committed SQL migrations are: next to this file in source, copied beside the bundle in a build. */
export function migrationsFolder(): string {
  const here = path.dirname(fileURLToPath(import.meta.url));
  const candidates = [path.join(here, 'migrations'), path.join(here, 'db', 'migrations')];
  const found = candidates.find((dir) => fs.existsSync(path.join(dir, 'meta', '_journal.json')));
  if (!found) throw new Error(`Database migrations not found (looked in ${candidates.join(', ')})`);
  return found;
}

export class DataDirLockedError extends Error {
  override name = 'DataDirLockedError';
}

/** The advisory lock that lets one process at a time migrate a PostgreSQL database (an arbitrary constant). */
export const MIGRATION_LOCK_ID = 4_201_013;

/**
 * Applies the migrations while holding a session advisory lock: two machines starting a new version at once take
 * turns, and the second finds everything applied. The lock is held on a connection of its own, released however the
 * migration ends (and by PostgreSQL if this process dies).
 */
async function migrateOnce(pool: pg.Pool): Promise<void> {
  const lock = await pool.connect();
  try {
    await lock.query('select pg_advisory_lock($1)', [MIGRATION_LOCK_ID]);
    try {
      await migratePg(drizzlePg(pool, { schema }), { migrationsFolder: migrationsFolder() });
    } finally {
      await lock.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK_ID]);
    }
  } finally {
    lock.release();
  }
}

export interface OpenDatabaseOptions {
  /**
   * Told when PostgreSQL drops an idle connection of the pool (a restart, `pg_terminate_backend`, a network cut):
   * the pool has already discarded it and opens a new one when needed. Log it; never rethrow.
   */
  onConnectionLost?: (error: Error) => void;
}

/**
 * How long a query waits for a connection (a free one of the pool, or a new one) before it fails with a 503: a
 * PostgreSQL that does not answer at all must not hang requests for the minutes a TCP connect can take. Generous,
 * because the same wait covers a burst queueing for the pool's 10 connections.
 */
const CONNECT_TIMEOUT_MS = 30_000;

/**
 * Opens the database and applies the migrations. PGlite with a data directory takes a lock file first:
 * two processes on one PGlite directory would silently lose data.
 */
export async function openDatabase(config: DatabaseConfig, options: OpenDatabaseOptions = {}): Promise<Database> {
  if (config.kind === 'postgres') {
    // A transaction whose `begin` fails must not keep its connection for good (drizzle's own leak; ADR 050).
    const pool = releaseFailedTransactions(
      new pg.Pool({ connectionString: config.url, max: 10, connectionTimeoutMillis: CONNECT_TIMEOUT_MS }),
    );
    // Without a listener, an idle connection's "terminating connection due to administrator command" is an unhandled
    // 'error' event, and the process dies with it. The pool removes the connection; later queries get a new one.
    pool.on('error', (error) => options.onConnectionLost?.(error));
    // A connection in use when it is lost fails its query (the request answers 503) and is dropped when released;
    // its own 'error' event has nothing more to say.
    pool.on('connect', (client) => client.on('error', () => undefined));
    const db = drizzlePg(pool, { schema }) as unknown as Db;
    try {
      await migrateOnce(pool);
    } catch (error) {
      await pool.end();
      throw error;
    }
    return { db, kind: 'postgres', close: () => pool.end() };
  }

  let releaseLock = () => {};
  let client: PGlite;
  if (config.dataDir) {
    fs.mkdirSync(config.dataDir, { recursive: true });
    releaseLock = lockDataDir(config.dataDir);
    client = new PGlite(path.join(config.dataDir, 'pgdata'));
  } else {
    client = new PGlite();
  }
  const drizzleDb = drizzlePglite(client, { schema });
  try {
    await migratePglite(drizzleDb, { migrationsFolder: migrationsFolder() });
  } catch (error) {
    await client.close();
    releaseLock();
    throw error;
  }
  let closed = false;
  return {
    db: drizzleDb as unknown as Db,
    kind: 'pglite',
    close: async () => {
      if (closed) return;
      closed = true;
      await client.close();
      releaseLock();
    },
  };
}

const locksHeldHere = new Set<string>();

function lockDataDir(dataDir: string): () => void {
  const lockPath = path.join(dataDir, 'keyport.lock');
  if (locksHeldHere.has(lockPath)) {
    throw new DataDirLockedError(
      `The data directory ${dataDir} is in use by another Keyport process (pid ${process.pid}).`,
    );
  }
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      fs.writeFileSync(lockPath, String(process.pid), { flag: 'wx' });
      locksHeldHere.add(lockPath);
      return () => {
        locksHeldHere.delete(lockPath);
        fs.rmSync(lockPath, { force: true });
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const holder = Number(fs.readFileSync(lockPath, 'utf8').trim());
      if (Number.isInteger(holder) && holder > 0 && holder !== process.pid && isAlive(holder)) {
        throw new DataDirLockedError(
          `The data directory ${dataDir} is in use by another Keyport process (pid ${holder}). ` +
            'Stop that process, or set DATA_DIR to a different directory.',
        );
      }
      fs.rmSync(lockPath, { force: true }); // stale lock left by a process that died
    }
  }
  throw new DataDirLockedError(`Could not lock the data directory ${dataDir}.`);
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
