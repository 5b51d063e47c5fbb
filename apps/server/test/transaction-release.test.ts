/**
 * ADR 050: a transaction whose `begin` fails gives its connection back (drizzle-orm 0.45 keeps it: issues #6241,
 * #6114). A TCP proxy between a one-connection pool and PostgreSQL cuts the connection exactly when the client sends
 * the statement named, so the failure happens where a PostgreSQL restart or a dropped connection would make it happen.
 * Runs with TEST_DATABASE_URL (PGlite has no pool).
 *
 * @one-database: PostgreSQL's connection pool only; nothing of it exists on PGlite.
 */
import { sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { releaseFailedTransactions } from '../src/db/transaction-release';
import { startTcpProxy, type TcpProxy } from './helpers/tcp-proxy';

const databaseUrl = process.env.TEST_DATABASE_URL;
const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => undefined);
});

/** A one-connection pool through a proxy, as the portal makes its pool (lost connections told, never thrown). */
async function onePool(guarded: boolean): Promise<{ pool: pg.Pool; proxy: TcpProxy; released: unknown[] }> {
  const target = new URL(databaseUrl!);
  const proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port || 5432) });
  cleanups.push(() => proxy.close());
  const viaProxy = new URL(databaseUrl!);
  viaProxy.host = `127.0.0.1:${proxy.port}`;
  // A short wait for the one connection: without the release, the next transaction fails after it.
  const made = new pg.Pool({ connectionString: viaProxy.toString(), max: 1, connectionTimeoutMillis: 1_000 });
  const pool = guarded ? releaseFailedTransactions(made) : made;
  pool.on('error', () => undefined);
  pool.on('connect', (client) => client.on('error', () => undefined));
  const released: unknown[] = [];
  pool.on('release', (error: unknown) => released.push(error));
  // A pool that kept a connection never ends: its proxy's close cuts that connection anyway.
  cleanups.push(() => Promise.race([pool.end(), new Promise((resolve) => setTimeout(resolve, 300))]));
  return { pool, proxy, released };
}

describe.skipIf(!databaseUrl)('a transaction whose begin fails (drizzle on node-postgres)', () => {
  it('gives its connection back: the one connection serves the next transaction, and the pool ends', async () => {
    const { pool, proxy } = await onePool(true);
    const db = drizzle(pool);
    expect((await db.execute(sql`select 1 as one`)).rows).toEqual([{ one: 1 }]);

    proxy.cutConnectionOn('begin');
    await expect(db.transaction((tx) => tx.execute(sql`select 1`))).rejects.toThrow();
    proxy.cutConnectionOn(null);

    const next = await db.transaction((tx) => tx.execute(sql`select 2 as two`));
    expect(next.rows).toEqual([{ two: 2 }]);
    expect([pool.totalCount, pool.idleCount, pool.waitingCount]).toEqual([1, 1, 0]);
    await pool.end(); // returns: nothing is checked out any more
    expect(pool.ended).toBe(true);
  });

  it('without it, drizzle keeps the connection and the next transaction finds none (remove ADR 050 once this fails)', async () => {
    const { pool, proxy } = await onePool(false);
    const db = drizzle(pool);
    await db.execute(sql`select 1`);

    proxy.cutConnectionOn('begin');
    await expect(db.transaction((tx) => tx.execute(sql`select 1`))).rejects.toThrow();
    proxy.cutConnectionOn(null);

    await expect(db.transaction((tx) => tx.execute(sql`select 2`))).rejects.toThrow();
    expect([pool.totalCount, pool.idleCount]).toEqual([1, 0]);
  });

  it('destroys a connection whose rollback failed rather than pooling it, and keeps serving', async () => {
    const { pool, proxy, released } = await onePool(true);
    const db = drizzle(pool);
    await db.execute(sql`select 1`);
    released.length = 0;

    proxy.cutConnectionOn('rollback');
    await expect(
      db.transaction(async (tx) => {
        await tx.execute(sql`select 1`);
        throw new Error('the work failed');
      }),
    ).rejects.toThrow();
    proxy.cutConnectionOn(null);

    // pg-pool was told the error, so it destroyed the client instead of keeping it.
    expect(released).toHaveLength(1);
    expect(released[0]).toBeInstanceOf(Error);
    expect((await db.transaction((tx) => tx.execute(sql`select 3 as three`))).rows).toEqual([{ three: 3 }]);
  });

  it('leaves a transaction that works as it was: committed, its connection pooled, released once', async () => {
    const { pool, released } = await onePool(true);
    const db = drizzle(pool);
    await db.execute(sql`create temporary table if not exists transaction_release_probe (n int)`);
    released.length = 0;
    // A temporary table lives on its connection: the same one serves every statement here.
    await db.transaction((tx) => tx.execute(sql`insert into transaction_release_probe values (7)`));
    await expect(
      db.transaction(async (tx) => {
        await tx.execute(sql`insert into transaction_release_probe values (8)`);
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    expect((await db.execute(sql`select n from transaction_release_probe`)).rows).toEqual([{ n: 7 }]);
    expect(released.slice(0, 2)).toEqual([undefined, undefined]);
    expect([pool.totalCount, pool.idleCount]).toEqual([1, 1]);
  });
});
