import type pg from 'pg';

type QueryConfigLike = string | { text?: unknown } | null | undefined;

const textOf = (config: QueryConfigLike): string =>
  typeof config === 'string' ? config : typeof config?.text === 'string' ? config.text : '';
const BEGIN = /^\s*begin\b/i;
const ROLLBACK = /^\s*rollback\b/i;

/**
 * Makes `pool.connect()` (what drizzle's `db.transaction()` checks a client out with) give a client that goes back to
 * the pool on every path. drizzle-orm 0.45's node-postgres `transaction()` runs `begin` before the `try … finally`
 * that releases the client (drizzle-orm issues #6241, #6114, #6023, open): a `begin` that fails leaks the client for
 * the life of the process. That is what a PostgreSQL restart or a dropped connection does to a transaction starting at
 * that moment (a sign-in, a payment's fulfilment). With 10 connections, ten such moments and every request waits
 * 30 s for a connection, then answers 503, until the process restarts. It also releases the client without the
 * error when `rollback` failed, so a broken client could go back to the pool.
 *
 * Here, for each checkout through the promise form of `connect()`:
 * - a `begin` that is the client's first statement and fails releases the client with its error, so pg-pool
 *   destroys it;
 * - a failed `rollback` is remembered, and the release passes it on, so that client is destroyed too;
 * - `release()` works once per checkout: drizzle's own call after the above is a no-op.
 *
 * The callback form (`pool.query()` uses it and releases by itself) is left as it is. Remove this when drizzle
 * releases the client itself (ADR 050).
 */
export function releaseFailedTransactions(pool: pg.Pool): pg.Pool {
  const connect = pool.connect.bind(pool) as (callback?: unknown) => Promise<pg.PoolClient> | void;
  (pool as unknown as { connect: (callback?: unknown) => unknown }).connect = (callback?: unknown) => {
    if (callback !== undefined) return connect(callback);
    return (connect() as Promise<pg.PoolClient>).then(guard);
  };
  return pool;
}

function guard(client: pg.PoolClient): pg.PoolClient {
  const poolRelease = client.release;
  const query = Object.getPrototypeOf(client).query as (...args: unknown[]) => unknown;
  let released = false;
  let statements = 0;
  let rollbackFailed: Error | undefined;
  const release = (error?: Error | boolean) => {
    if (released) return;
    released = true;
    // This checkout's wrappers go: the next one (pool.query() included) gets the client as pg made it.
    delete (client as { query?: unknown }).query;
    poolRelease.call(client, error ?? rollbackFailed);
  };
  client.release = release;
  (client as unknown as { query: (...args: unknown[]) => unknown }).query = function (...args: unknown[]) {
    const first = statements === 0;
    statements += 1;
    const result = query.apply(client, args);
    if (result instanceof Promise) {
      const text = textOf(args[0] as QueryConfigLike);
      if (first && BEGIN.test(text)) {
        result.catch((error: Error) => release(error));
      } else if (ROLLBACK.test(text)) {
        result.catch((error: Error) => (rollbackFailed = error));
      }
    }
    return result;
  };
  return client;
}
