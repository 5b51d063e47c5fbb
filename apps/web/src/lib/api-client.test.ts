import { afterEach, describe, expect, it, vi } from 'vitest';
import { addKey } from '@keyport/shared/contracts/keys';
import {
  ApiError,
  callApi,
  isNetworkError,
  NETWORK_ERROR_CODE,
  NETWORK_ERROR_MESSAGE,
  serverMessage,
  UNKNOWN_ERROR_CODE,
} from './api-client';

const failWith = (response: Response | Error) =>
  vi.stubGlobal(
    'fetch',
    vi.fn(async () => {
      if (response instanceof Error) throw response;
      return response;
    }),
  );
const callFailure = () => callApi(addKey, { body: { key: 'K' } }).catch((error: unknown) => error);

describe('ApiError', () => {
  afterEach(() => vi.unstubAllGlobals());

  it("carries the server's code beside its message", async () => {
    failWith(
      new Response(
        JSON.stringify({ error: 'This key already belongs to another account.', code: 'key_owned_by_another' }),
        {
          status: 409,
          headers: { 'content-type': 'application/json' },
        },
      ),
    );
    const error = await callFailure();
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({
      status: 409,
      code: 'key_owned_by_another',
      message: 'This key already belongs to another account.',
    });
    expect(serverMessage(error)).toBe('This key already belongs to another account.');
    expect(isNetworkError(error)).toBe(false);
  });

  it('says when the server could not be reached', async () => {
    failWith(new TypeError('Failed to fetch'));
    const error = await callFailure();
    expect(error).toMatchObject({ status: 0, code: NETWORK_ERROR_CODE, message: NETWORK_ERROR_MESSAGE });
    expect(isNetworkError(error)).toBe(true);
    expect(serverMessage(error)).toBeNull();
  });

  it('has no server message when the error body is not the envelope', async () => {
    failWith(new Response('<html>Bad gateway</html>', { status: 502, statusText: 'Bad Gateway' }));
    const error = await callFailure();
    expect(error).toMatchObject({ status: 502, code: UNKNOWN_ERROR_CODE });
    expect(serverMessage(error)).toBeNull();
  });
});
