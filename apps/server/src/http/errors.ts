/** The coded errors a handler may throw. Each becomes `{ "error": message }` with its status. */
export class AppError extends Error {
  override name = 'AppError';
  constructor(
    readonly statusCode: 400 | 401 | 403 | 404 | 409 | 410 | 413 | 429,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

export const badRequest = (message: string) => new AppError(400, message);
export const unauthorized = (message = AUTH_REQUIRED) => new AppError(401, message);
export const forbidden = (message = 'You do not have permission to do that') => new AppError(403, message);
export const notFound = (message = 'Not found') => new AppError(404, message);
export const conflict = (message: string) => new AppError(409, message);
export const tooManyRequests = (retryAfterSeconds: number, message = 'Too many attempts. Please wait and try again.') =>
  new AppError(429, message, { 'retry-after': String(retryAfterSeconds) });

export const AUTH_REQUIRED = 'Authentication required';
