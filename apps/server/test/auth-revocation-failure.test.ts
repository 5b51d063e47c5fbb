/**
 * ADR 032: ending a session must not fail because the announcement to the other processes does (Redis away). The
 * session row is gone and this process's cache forgot it before the announcement; the failure is logged.
 */
import { PassThrough } from 'node:stream';
import { beforeAll, expect, it } from 'vitest';
import { createMemoryRevocations } from '../src/integrations/shared-state/memory-revocations';
import type { SessionRevocations } from '../src/integrations/shared-state/port';
import { auth, createTestApp, signUp, type TestApp } from './helpers/test-app';

let t: TestApp;
const logs: { level: number; msg: string }[] = [];

/** Tells this process, as every adapter does first, then fails as a Redis publish fails while Redis is away. */
function failingRevocations(): SessionRevocations {
  const local = createMemoryRevocations();
  return {
    async revoke(tokenHash) {
      await local.revoke(tokenHash);
      throw new Error('Connection is closed.');
    },
    onRevoked: (listener) => local.onRevoked(listener),
    close: () => local.close(),
  };
}

beforeAll(async () => {
  const destination = new PassThrough();
  destination.on('data', (chunk: Buffer) => {
    for (const line of chunk.toString('utf8').split('\n')) if (line.trim()) logs.push(JSON.parse(line));
  });
  t = await createTestApp({ LOG_LEVEL: 'warn' }, { revocations: failingRevocations() }, destination);
});

it('signs out and refuses the session here at once when the other processes cannot be told; logs a warning', async () => {
  const { token } = await signUp(t, 'redis-away@example.com');
  const me = () => t.app.inject({ method: 'GET', url: '/auth/me', headers: auth(token) });
  expect((await me()).statusCode).toBe(200); // cached in this process now
  const logout = await t.app.inject({ method: 'POST', url: '/auth/logout', headers: auth(token) });
  expect(logout.statusCode).toBeLessThan(300);
  expect((await me()).statusCode).toBe(401);
  expect(logs.filter((line) => line.msg === 'ended sessions not announced to the other processes')).toHaveLength(1);
});

it('changes a password even so, ending the other sessions', async () => {
  const password = 'correct-horse-battery';
  const { token } = await signUp(t, 'changer-redis-away@example.com', { password });
  const login = await t.app.inject({
    method: 'POST',
    url: '/auth/login',
    payload: { email: 'changer-redis-away@example.com', password },
  });
  const other = login.json<{ token: string }>().token;
  expect((await t.app.inject({ method: 'GET', url: '/auth/me', headers: auth(other) })).statusCode).toBe(200);
  const change = await t.app.inject({
    method: 'POST',
    url: '/auth/password/change',
    headers: auth(token),
    payload: { current_password: password, new_password: 'another-horse-battery' },
  });
  expect(change.statusCode).toBe(200);
  expect((await t.app.inject({ method: 'GET', url: '/auth/me', headers: auth(other) })).statusCode).toBe(401);
});
