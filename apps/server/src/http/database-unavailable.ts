import { DrizzleQueryError } from 'drizzle-orm/errors';

/** What a request caught while PostgreSQL is away (restarting, unreachable) is answered, with a 503. */
export const DATABASE_UNAVAILABLE = 'The service is briefly unavailable. Please try again in a few seconds.';
/** Seconds a client is asked to wait (Retry-After): about what a PostgreSQL restart takes. */
export const DATABASE_RETRY_AFTER_SECONDS = 5;

/**
 * PostgreSQL's own codes for a lost or refused connection: class 08 (connection exception), and 57P01–57P03
 * (terminated by an administrator or a shutdown, "cannot connect now" while it starts).
 */
const SERVER_CODES = /^(08...|57P0[123])$/;
/** The socket failing under node-postgres (a refused connect, a reset, a timeout). */
const SOCKET_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENETUNREACH']);
/** node-postgres's and its pool's own words for a connection that ended or could not be made. */
const DRIVER_MESSAGES = [
  /^Connection terminated/,
  /^timeout exceeded when trying to connect$/,
  /is not queryable$/,
  /^Cannot use a pool after calling end on the pool$/,
];

/**
 * Whether an error means "the database is not reachable right now" (rather than a bug or bad data): a query that
 * failed with a connection error (Drizzle wraps it, the cause is the driver's), or the pool failing to connect at the
 * start of a transaction. Other errors' causes are not followed: a `fetch` to a provider that was refused is not the
 * database being away.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  const candidate = error instanceof DrizzleQueryError ? error.cause : error;
  if (!(candidate instanceof Error)) return false;
  const code = (candidate as { code?: unknown }).code;
  if (typeof code === 'string' && (SERVER_CODES.test(code) || SOCKET_CODES.has(code))) {
    // A socket error counts only from the driver's own connect (a pg error carries no syscall; a socket error of a
    // query in flight is reported as "Connection terminated" instead).
    return SERVER_CODES.test(code) || (candidate as { syscall?: unknown }).syscall === 'connect';
  }
  return DRIVER_MESSAGES.some((pattern) => pattern.test(candidate.message));
}
