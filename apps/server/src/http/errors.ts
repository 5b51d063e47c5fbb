/** HTTP statuses a handler may answer with an AppError. */
export type ClientErrorStatus = 400 | 401 | 402 | 403 | 404 | 409 | 410 | 413 | 416 | 422 | 429 | 502 | 503;

/**
 * The coded errors a handler may throw. Each becomes `{ "error": message, "code": code }` with its status: `message`
 * is for people (the spec's text where it gives one), `code` is stable and for programs.
 */
export class AppError extends Error {
  override name = 'AppError';
  constructor(
    readonly statusCode: ClientErrorStatus,
    message: string,
    readonly code: string = defaultCode(statusCode),
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

function defaultCode(status: ClientErrorStatus): string {
  switch (status) {
    case 400:
      return 'bad_request';
    case 401:
      return 'unauthorized';
    case 402:
      return 'payment_required';
    case 403:
      return 'forbidden';
    case 404:
      return 'not_found';
    case 409:
      return 'conflict';
    case 410:
      return 'gone';
    case 413:
      return 'payload_too_large';
    case 416:
      return 'range_not_satisfiable';
    case 422:
      return 'unprocessable';
    case 429:
      return 'rate_limited';
    case 502:
      return 'provider_error';
    case 503:
      return 'unavailable';
  }
}

export const badRequest = (message: string, code = 'bad_request') => new AppError(400, message, code);
export const unauthorized = (message = AUTH_REQUIRED, code = 'unauthorized') => new AppError(401, message, code);
export const forbidden = (message = 'You do not have permission to do that', code = 'forbidden') =>
  new AppError(403, message, code);
export const notFound = (message = 'Not found', code = 'not_found') => new AppError(404, message, code);
export const conflict = (message: string, code = 'conflict') => new AppError(409, message, code);
export const tooManyRequests = (
  retryAfterSeconds: number,
  message = 'Too many attempts. Please wait and try again.',
  code = 'rate_limited',
) => new AppError(429, message, code, { 'retry-after': String(retryAfterSeconds) });

export const AUTH_REQUIRED = 'Authentication required';
