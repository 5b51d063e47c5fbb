import type { BodyOf, Contract, ParamsOf, QueryOf, ResponseOf } from '@keyport/shared/contracts/define';
import { clearSessionToken, getSessionToken } from './session-token';

/** The `code` of a call that never reached the server (no response at all). */
export const NETWORK_ERROR_CODE = 'network_error';
/** The `code` when the server answered an error without the `{ error, code }` body (a proxy's page, say). */
export const UNKNOWN_ERROR_CODE = 'unknown_error';

/**
 * A failed call: the server's `{ error, code }` with its status, or a network failure (status 0). `message` is for
 * people (the spec's text where it gives one) and is shown as it is; `code` is for the program to decide what to do.
 */
export class ApiError extends Error {
  override name = 'ApiError';
  constructor(
    readonly status: number,
    message: string,
    readonly code: string,
    /** The HTTP status text ('' for a network failure): §8 'Failed to create payment intent: {status text}'. */
    readonly statusText: string = '',
  ) {
    super(message);
  }
}

export const NETWORK_ERROR_MESSAGE = 'Could not reach the server. Check your connection and try again.';

/** The ApiError of an error response, from its `{ error, code }` body when it has one. */
export function apiErrorFrom(response: Response, payload: unknown): ApiError {
  const body = payload && typeof payload === 'object' ? (payload as Record<string, unknown>) : {};
  const message =
    typeof body.error === 'string' ? body.error : `Request failed (${response.status} ${response.statusText})`;
  const code = typeof body.code === 'string' ? body.code : UNKNOWN_ERROR_CODE;
  return new ApiError(response.status, message, code, response.statusText);
}

/** The server's own text for a failed call (from its `{ error, code }` body), or null when it sent none. */
export function serverMessage(error: unknown): string | null {
  if (!(error instanceof ApiError)) return null;
  return error.code === NETWORK_ERROR_CODE || error.code === UNKNOWN_ERROR_CODE ? null : error.message;
}

/** True when the call never reached the server. */
export const isNetworkError = (error: unknown): boolean =>
  error instanceof ApiError && error.code === NETWORK_ERROR_CODE;

type Listener = () => void;
const unauthorizedListeners = new Set<Listener>();

/** Called when a signed-in call answers 401: the session is gone and the person must sign in again. */
export function onUnauthorized(listener: Listener): () => void {
  unauthorizedListeners.add(listener);
  return () => unauthorizedListeners.delete(listener);
}

export interface CallInput<C extends Contract> {
  body?: BodyOf<C>;
  query?: QueryOf<C>;
  params?: ParamsOf<C>;
  signal?: AbortSignal;
  headers?: Record<string, string>;
}

function buildUrl(contract: Contract, params?: object, query?: object): string {
  let path = contract.path;
  for (const [name, value] of Object.entries(params ?? {})) {
    path = path.replace(`:${name}`, encodeURIComponent(String(value)));
  }
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(query ?? {})) {
    if (value !== undefined && value !== null) search.set(name, String(value));
  }
  const qs = search.toString();
  return qs ? `${path}?${qs}` : path;
}

/** Calls an endpoint from its shared contract, with the session token in `Authorization: Token <t>`. */
export async function callApi<C extends Contract>(contract: C, input: CallInput<C> = {}): Promise<ResponseOf<C>> {
  const response = await callApiForResponse(contract, input);
  if (response.status === 204) return undefined as ResponseOf<C>;
  return (await response.json()) as ResponseOf<C>;
}

/**
 * Like callApi, but hands back the successful Response unread, for files streamed with progress.
 * Failures throw ApiError exactly as callApi does.
 */
export async function callApiForResponse<C extends Contract>(contract: C, input: CallInput<C> = {}): Promise<Response> {
  const headers: Record<string, string> = { accept: 'application/json', ...input.headers };
  const token = getSessionToken();
  if (token) headers.authorization = `Token ${token}`;
  if (input.body !== undefined) headers['content-type'] = 'application/json';

  let response: Response;
  try {
    response = await fetch(buildUrl(contract, input.params ?? undefined, input.query ?? undefined), {
      method: contract.method,
      headers,
      body: input.body === undefined ? undefined : JSON.stringify(input.body),
      signal: input.signal,
    });
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') throw error;
    throw new ApiError(0, NETWORK_ERROR_MESSAGE, NETWORK_ERROR_CODE);
  }

  if (response.ok) return response;
  const payload: unknown = await response.json().catch(() => null);
  if (response.status === 401 && contract.access !== 'public' && token) {
    clearSessionToken();
    unauthorizedListeners.forEach((listener) => listener());
  }
  throw apiErrorFrom(response, payload);
}
