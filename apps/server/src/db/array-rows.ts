import { PGlite } from '@electric-sql/pglite';
import { fillPlaceholders } from 'drizzle-orm';
import pg from 'pg';
import type { Db } from './client';

/** A statement drizzle built (a select with `sql.placeholder`s): its text, and its parameters in order. */
interface BuiltQuery {
  toSQL(): { sql: string; params: unknown[] };
}

/**
 * Issue 22 (ADR 049): a hot read run as the driver's own prepared statement, its rows asked for as arrays and made
 * into objects by `toRow`, one object literal per row. Drizzle builds the statement (its text and parameter order come
 * from `query`, so a renamed column is still a compile error there); only the execution is the driver's.
 *
 * Through drizzle's `all()` the driver built each row by assigning every column by name to a copy of a dictionary
 * object. The keys list's rows then had a different shape on each run, and every call site that touched them (pg's
 * row parser, the response serializer) went megamorphic in a process running a hundred other statements. With arrays
 * and one literal, every row has the same hidden class. `GET /keys/` used 5–21 % less CPU per request
 * (docs/performance.md, "Issue 22, fourth round").
 *
 * Only for columns both drivers parse alike: integers, text, booleans. Timestamps would come as `Date`s here, where
 * drizzle's own queries read them as text. Errors are the driver's own (not drizzle's `DrizzleQueryError`); the 503
 * mapping and the log serializers handle both.
 */
export function prepareArrayRows<Row>(
  db: Db,
  name: string,
  query: BuiltQuery,
  toRow: (values: unknown[]) => Row,
): (placeholders: Record<string, unknown>) => Promise<Row[]> {
  const { sql: text, params } = query.toSQL();
  const client = (db as unknown as { $client: unknown }).$client;
  const rowsOf = (rows: unknown[][]): Row[] => {
    const out = new Array<Row>(rows.length);
    for (let i = 0; i < rows.length; i += 1) out[i] = toRow(rows[i]!);
    return out;
  };
  if (client instanceof pg.Pool) {
    return async (placeholders) => {
      // The values in the config itself: pg then has no config to copy.
      const result = await client.query<unknown[]>({
        name,
        text,
        values: fillPlaceholders(params, placeholders),
        rowMode: 'array',
      });
      return rowsOf(result.rows);
    };
  }
  if (client instanceof PGlite) {
    return async (placeholders) => {
      const result = await client.query<unknown[]>(text, fillPlaceholders(params, placeholders), { rowMode: 'array' });
      return rowsOf(result.rows);
    };
  }
  throw new Error('prepareArrayRows: the database is neither a pg pool nor PGlite');
}
