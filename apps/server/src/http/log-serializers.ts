/**
 * What reaches the logs of an error. Drizzle puts a failed statement's parameters into its message ("Failed query: …
 * params: <password hash>, <license key>") and PostgreSQL echoes values in `detail` ("Key (email)=(…) already
 * exists"): both are dropped. The statement itself stays, so an operator can tell which query failed.
 */

/** Properties of a database error that name things, never values. */
const SAFE_ERROR_FIELDS = ['code', 'severity', 'routine', 'constraint', 'table', 'column', 'schema'] as const;
const MAX_CAUSE_DEPTH = 4;

export interface SerializedError {
  type: string;
  message: string;
  stack: string;
  query?: string;
  statusCode?: number;
  cause?: SerializedError;
  [field: string]: unknown;
}

export function serializeError(error: unknown, depth = 0): SerializedError {
  if (!(error instanceof Error)) return { type: typeof error, message: '[non-error value]', stack: '' };
  const message = withoutParameters(error.message);
  const serialized: SerializedError = {
    type: error.name,
    message,
    stack: `${error.name}: ${message}\n${stackFrames(error.stack ?? '')}`,
  };
  const record = error as unknown as Record<string, unknown>;
  if (typeof record.query === 'string') serialized.query = record.query;
  if (typeof record.statusCode === 'number') serialized.statusCode = record.statusCode;
  for (const field of SAFE_ERROR_FIELDS) {
    const value = record[field];
    if (typeof value === 'string' || typeof value === 'number') serialized[field] = value;
  }
  if (error.cause !== undefined && depth < MAX_CAUSE_DEPTH) serialized.cause = serializeError(error.cause, depth + 1);
  return serialized;
}

/** Drizzle's "Failed query: <sql>\nparams: <values>": everything from the parameters on is cut. */
function withoutParameters(message: string): string {
  const at = message.indexOf('\nparams:');
  return at < 0 ? message : `${message.slice(0, at)}\nparams: [not logged]`;
}

/** The "    at …" lines of a stack (its first lines repeat the message, which may hold the parameters). */
function stackFrames(stack: string): string {
  return stack
    .split('\n')
    .filter((line) => /^\s+at /.test(line))
    .join('\n');
}

/** A request as the logs show it: the method, the path without the query string (it can hold a reset token), the address. */
export function serializeRequest(request: { method: string; url: string; ip: string }): {
  method: string;
  url: string;
  remoteAddress: string;
} {
  const query = request.url.indexOf('?');
  return {
    method: request.method,
    url: query === -1 ? request.url : request.url.slice(0, query),
    remoteAddress: request.ip,
  };
}
