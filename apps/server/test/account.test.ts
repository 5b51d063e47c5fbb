import { beforeAll, describe, expect, it } from 'vitest';
import { PASSWORD_CHANGED_MESSAGE } from '@keyport/shared/contracts/auth';
import { auth, createTestApp, signUp, type TestApp } from './helpers/test-app';

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp({ AUTH_RATE_LIMIT_MAX: '4' });
});

const login = (email: string, password: string, ip: string) =>
  t.app.inject({ method: 'POST', url: '/auth/login', payload: { email, password }, remoteAddress: ip });

describe('account settings', () => {
  const me = (token: string) => t.app.inject({ url: '/auth/me', headers: auth(token) });
  const rename = (token: string, name: unknown) =>
    t.app.inject({ method: 'PUT', url: '/auth/me', headers: auth(token), payload: { name } });
  const changePassword = (token: string, current_password: string, new_password: string) =>
    t.app.inject({
      method: 'POST',
      url: '/auth/password/change',
      headers: auth(token),
      payload: { current_password, new_password },
    });

  it('PUT /auth/me changes the name (trimmed) and answers with the user', async () => {
    const { token } = await signUp(t, 'gina@example.com');
    expect((await me(token)).json().name).toBe('gina'); // resolves, and caches, the session
    const response = await rename(token, '  Gina Green ');
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ email: 'gina@example.com', name: 'Gina Green', orders: [] });
    expect((await me(token)).json().name).toBe('Gina Green');
  });

  it('PUT /auth/me refuses an empty name and needs a session', async () => {
    const { token } = await signUp(t, 'hank@example.com');
    const blank = await rename(token, '   ');
    expect(blank.statusCode).toBe(400);
    expect(blank.json()).toMatchObject({ error: 'Enter your name' });
    expect((await me(token)).json().name).toBe('hank');
    const anonymous = await t.app.inject({ method: 'PUT', url: '/auth/me', payload: { name: 'X' } });
    expect(anonymous.statusCode).toBe(401);
  });

  it('changes the password, keeps this session and signs out every other one', async () => {
    const { token: here } = await signUp(t, 'ivy@example.com', { password: 'old-password-1' });
    const elsewhere = (await login('ivy@example.com', 'old-password-1', '10.4.0.1')).json().token as string;
    expect((await me(elsewhere)).statusCode).toBe(200); // now cached for a few seconds

    const response = await changePassword(here, 'old-password-1', 'new-password-2');
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ message: PASSWORD_CHANGED_MESSAGE });
    expect((await me(here)).statusCode).toBe(200);
    expect((await me(elsewhere)).statusCode).toBe(401);
    expect((await login('ivy@example.com', 'old-password-1', '10.4.0.2')).statusCode).toBe(401);
    expect((await login('ivy@example.com', 'new-password-2', '10.4.0.3')).statusCode).toBe(200);
  });

  it('refuses a wrong current password with 400 and changes nothing', async () => {
    const { token: here } = await signUp(t, 'jack@example.com', { password: 'old-password-1' });
    const elsewhere = (await login('jack@example.com', 'old-password-1', '10.5.0.1')).json().token as string;
    const response = await changePassword(here, 'not-my-password', 'new-password-2');
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ error: 'Your current password is not correct.' });
    expect((await me(elsewhere)).statusCode).toBe(200);
    expect((await login('jack@example.com', 'old-password-1', '10.5.0.2')).statusCode).toBe(200);
  });

  it('checks the new password and needs a session', async () => {
    const { token } = await signUp(t, 'kate@example.com', { password: 'old-password-1' });
    const short = await changePassword(token, 'old-password-1', 'short');
    expect(short.statusCode).toBe(400);
    expect(short.json()).toMatchObject({ error: 'Password must be at least 8 characters' });
    const anonymous = await t.app.inject({
      method: 'POST',
      url: '/auth/password/change',
      payload: { current_password: 'old-password-1', new_password: 'new-password-2' },
    });
    expect(anonymous.statusCode).toBe(401);
  });

  it('limits wrong current passwords per user (429 with Retry-After)', async () => {
    const { token } = await signUp(t, 'liam@example.com', { password: 'old-password-1' });
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) {
      const response = await changePassword(token, `wrong-${i}`, 'new-password-2');
      statuses.push(response.statusCode);
      if (response.statusCode === 429) expect(Number(response.headers['retry-after'])).toBeGreaterThan(0);
    }
    expect(statuses).toEqual([400, 400, 400, 400, 429, 429]);
    expect((await changePassword(token, 'old-password-1', 'new-password-2')).statusCode).toBe(429);
  });
});
