import { z } from 'zod/mini';

/**
 * The largest id a row can have: ids are PostgreSQL `serial`/`integer` columns (2^31 − 1). A larger number reaching a
 * query makes PostgreSQL refuse it ("out of range for type integer"), which was a 500; the contracts refuse it first.
 */
export const MAX_ID = 2_147_483_647;

/** True for an id written in decimal: 1 to 2^31 − 1, no sign, no leading zero, nothing else. */
export const isIdText = (value: string): boolean => /^[1-9]\d{0,9}$/.test(value) && Number(value) <= MAX_ID;

/**
 * An id in a path or a query string (a row id, a list cursor). The value stays a string; handlers turn it into a
 * number with `Number()`. This and `idNumber` are the contracts' one id schema: a bad id is a 400 `invalid_request`,
 * never a 500.
 */
export const idString = (message = 'Invalid id') =>
  z.string().check(z.regex(/^[1-9]\d{0,9}$/, message), z.refine(isIdText, message));

/** An id in a JSON body: an integer from 1 to 2^31 − 1. */
export const idNumber = (message = 'Invalid id') => z.int().check(z.minimum(1, message), z.maximum(MAX_ID, message));

/** The largest id of a `bigint` row (the job engine's `jobs`): what a JavaScript number holds exactly. */
export const MAX_BIG_ID = Number.MAX_SAFE_INTEGER;

/** An id of a `bigint` row in a path or a query string: 1 to 2^53 − 1, no sign, no leading zero. */
export const bigIdString = (message = 'Invalid id') =>
  z.string().check(
    z.regex(/^[1-9]\d{0,15}$/, message),
    z.refine((value) => Number(value) <= MAX_BIG_ID, message),
  );
