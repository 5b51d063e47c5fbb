import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { FORGOT_PASSWORD_MESSAGE } from '@keyport/shared/contracts/auth';
import { sessions } from '../src/db/schema';
import type { EmailMessage } from '../src/integrations/email/port';
import { auth, createTestApp, signUp, type TestApp } from './helpers/test-app';

const sent: EmailMessage[] = [];
let t: TestApp;

beforeAll(async () => {
  t = await createTestApp(
    { AUTH_RATE_LIMIT_MAX: '4' },
    { email: { name: 'capture', send: async (message) => void sent.push(message) } },
  );
});

const login = (email: string, password: string, ip = '10.0.0.1') =>
  t.app.inject({ method: 'POST', url: '/auth/login', payload: { email, password }, remoteAddress: ip });

describe('sign up, sign in, sign out', () => {
  it('signs up, returns a session and the user fields the spec reads', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/auth/signup',
      payload: { email: '  Alice@Example.com ', password: 'long-enough-pw', name: 'Alice' },
    });
    expect(response.statusCode).toBe(201);
    const body = response.json();
    expect(body.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(body.user).toEqual({
      id: expect.any(Number),
      email: 'alice@example.com',
      name: 'Alice',
      role: null,
      has_lifetime_support: null,
      orders: [],
    });
  });

  it('refuses a second account with the same email, whatever its case', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/auth/signup',
      payload: { email: 'ALICE@example.com', password: 'another-password', name: 'A' },
    });
    expect(response.statusCode).toBe(409);
    expect(response.json().error).toMatch(/already exists/);
  });

  it('signs in with the right password and rejects a wrong one or an unknown email with the same message', async () => {
    expect((await login('alice@example.com', 'long-enough-pw')).statusCode).toBe(200);
    for (const response of [
      await login('alice@example.com', 'wrong-password'),
      await login('nobody@example.com', 'x'),
    ]) {
      expect(response.statusCode).toBe(401);
      expect(response.json()).toMatchObject({ error: 'Invalid email or password' });
    }
  });

  it('accepts Token and Bearer schemes and rejects everything else with "Authentication required"', async () => {
    const { token } = await signUp(t, 'bob@example.com');
    expect((await t.app.inject({ url: '/auth/me', headers: auth(token) })).statusCode).toBe(200);
    expect((await t.app.inject({ url: '/auth/me', headers: { authorization: `Bearer ${token}` } })).statusCode).toBe(
      200,
    );
    for (const authorization of [
      undefined,
      '',
      'Token',
      `Basic ${token}`,
      `Token ${token}x`,
      'Token not-a-real-session-token',
    ]) {
      const response = await t.app.inject({
        url: '/auth/me',
        headers: authorization === undefined ? {} : { authorization },
      });
      expect(response.statusCode).toBe(401);
      expect(response.json()).toMatchObject({ error: 'Authentication required' });
    }
  });

  it('stores only a hash of the session token', async () => {
    const { token, id } = await signUp(t, 'carol@example.com');
    const rows = await t.db.select().from(sessions).where(eq(sessions.userId, id));
    expect(rows).toHaveLength(1);
    expect(rows[0]!.tokenHash).not.toContain(token);
    expect(rows[0]!.tokenHash).toMatch(/^[0-9a-f]{64}$/);
    expect(rows[0]!.expiresAt.getTime() - Date.now()).toBeGreaterThan(29 * 24 * 3600 * 1000);
  });

  it('logout revokes the session on the server', async () => {
    const { token } = await signUp(t, 'dave@example.com');
    const out = await t.app.inject({ method: 'POST', url: '/auth/logout', headers: auth(token) });
    expect(out.statusCode).toBe(204);
    const after = await t.app.inject({ url: '/auth/me', headers: auth(token) });
    expect(after.statusCode).toBe(401);
  });
});

describe('password reset', () => {
  it('emails a single-use link, sets the new password, and ends old sessions', async () => {
    const { token: oldSession } = await signUp(t, 'erin@example.com');
    const forgot = await t.app.inject({
      method: 'POST',
      url: '/auth/password/forgot',
      payload: { email: 'erin@example.com' },
    });
    expect(forgot.statusCode).toBe(202);
    expect(forgot.json()).toEqual({ message: FORGOT_PASSWORD_MESSAGE });
    await t.app.services.outbox.flush();
    const email = sent.find((message) => message.to === 'erin@example.com');
    const resetToken = /token=([A-Za-z0-9_-]+)/.exec(email?.text ?? '')?.[1];
    expect(resetToken).toBeDefined();

    const reset = await t.app.inject({
      method: 'POST',
      url: '/auth/password/reset',
      payload: { token: resetToken, password: 'brand-new-password' },
    });
    expect(reset.statusCode).toBe(200);
    expect(reset.json().user.email).toBe('erin@example.com');
    expect((await t.app.inject({ url: '/auth/me', headers: auth(oldSession) })).statusCode).toBe(401);
    expect((await login('erin@example.com', 'brand-new-password', '10.0.0.9')).statusCode).toBe(200);

    const again = await t.app.inject({
      method: 'POST',
      url: '/auth/password/reset',
      payload: { token: resetToken, password: 'third-password-here' },
    });
    expect(again.statusCode).toBe(400);
    expect(again.json().error).toMatch(/invalid or has expired/);
  });

  const requestReset = async (email: string, ip: string) => {
    const before = sent.length;
    await t.app.inject({ method: 'POST', url: '/auth/password/forgot', payload: { email }, remoteAddress: ip });
    await t.app.services.outbox.flush();
    expect(sent.length).toBe(before + 1);
    return /token=([A-Za-z0-9_-]+)/.exec(sent.at(-1)!.text)![1]!;
  };
  const useReset = (token: string, password: string) =>
    t.app.inject({ method: 'POST', url: '/auth/password/reset', payload: { token, password } });

  it('using a newer reset link revokes every older one of the account', async () => {
    await signUp(t, 'hugo@example.com', { ip: '10.5.9.9' });
    const first = await requestReset('hugo@example.com', '10.5.0.1');
    const second = await requestReset('hugo@example.com', '10.5.0.2');
    expect((await useReset(second, 'newer-link-password')).statusCode).toBe(200);
    const older = await useReset(first, 'older-link-password');
    expect(older.statusCode).toBe(400);
    expect(older.json()).toEqual({
      error: 'This reset link is invalid or has expired. Ask for a new one.',
      code: 'reset_link_invalid',
    });
    expect((await login('hugo@example.com', 'newer-link-password', '10.5.0.3')).statusCode).toBe(200);
  });

  it('changing the password revokes every outstanding reset link', async () => {
    const { token: session } = await signUp(t, 'iris@example.com', { password: 'iris-first-password', ip: '10.5.9.8' });
    const link = await requestReset('iris@example.com', '10.5.1.1');
    const change = await t.app.inject({
      method: 'POST',
      url: '/auth/password/change',
      headers: auth(session),
      payload: { current_password: 'iris-first-password', new_password: 'iris-second-password' },
    });
    expect(change.statusCode).toBe(200);
    expect((await useReset(link, 'someone-elses-password')).statusCode).toBe(400);
    expect((await login('iris@example.com', 'iris-second-password', '10.5.1.2')).statusCode).toBe(200);
  });

  it('answers the same for an unknown email and sends nothing', async () => {
    const before = sent.length;
    const forgot = await t.app.inject({
      method: 'POST',
      url: '/auth/password/forgot',
      payload: { email: 'ghost@example.com' },
      remoteAddress: '10.0.0.30',
    });
    expect(forgot.statusCode).toBe(202);
    expect(forgot.json()).toEqual({ message: FORGOT_PASSWORD_MESSAGE });
    await t.app.services.outbox.flush();
    expect(sent.length).toBe(before);
  });
});

describe('rate limits', () => {
  it('limits sign-in attempts per email (429 with Retry-After), even across IPs', async () => {
    await signUp(t, 'frank@example.com');
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) {
      const response = await login('frank@example.com', 'wrong-password', `10.1.0.${i}`);
      statuses.push(response.statusCode);
      if (response.statusCode === 429) expect(Number(response.headers['retry-after'])).toBeGreaterThan(0);
    }
    expect(statuses.slice(0, 4)).toEqual([401, 401, 401, 401]);
    expect(statuses.slice(4)).toEqual([429, 429]);
  });

  it('limits sign-in attempts per IP across emails', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 14; i++) statuses.push((await login(`user${i}@example.com`, 'nope', '10.2.0.1')).statusCode);
    expect(statuses.slice(0, 12).every((s) => s === 401)).toBe(true);
    expect(statuses.slice(12)).toEqual([429, 429]);
  });

  it('counts failures only: an office behind one IP keeps signing in', async () => {
    // AUTH_RATE_LIMIT_MAX is 4 here: 12 failed sign-ins per IP per window.
    const office = ['ola', 'pia', 'quinn', 'rui', 'sam'].map((name) => `${name}@office.example`);
    for (const email of office) await signUp(t, email, { password: 'office-password', ip: '10.6.9.9' });
    const statuses: number[] = [];
    for (let round = 0; round < 4; round++) {
      for (const email of office) statuses.push((await login(email, 'office-password', '10.6.0.1')).statusCode);
    }
    expect(statuses).toEqual(Array.from({ length: 20 }, () => 200));
    // Failures still count per IP: after 12 the IP is refused, whoever signs in.
    for (let i = 0; i < 12; i++)
      expect((await login(`nobody${i}@office.example`, 'x', '10.6.0.1')).statusCode).toBe(401);
    const blocked = await login(office[0]!, 'office-password', '10.6.0.1');
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json().code).toBe('rate_limited');
  });

  it("a successful sign-in resets that account's failure counter", async () => {
    await signUp(t, 'tess@example.com', { password: 'tess-password', ip: '10.7.9.9' });
    const statuses: number[] = [];
    for (let round = 0; round < 3; round++) {
      for (let i = 0; i < 3; i++)
        statuses.push((await login('tess@example.com', 'typo', `10.7.${round}.${i}`)).statusCode);
      statuses.push((await login('tess@example.com', 'tess-password', `10.7.${round}.9`)).statusCode);
    }
    expect(statuses).toEqual([401, 401, 401, 200, 401, 401, 401, 200, 401, 401, 401, 200]);
  });

  it('limits password reset requests per email', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) {
      const response = await t.app.inject({
        method: 'POST',
        url: '/auth/password/forgot',
        payload: { email: 'limited@example.com' },
        remoteAddress: `10.3.0.${i}`,
      });
      statuses.push(response.statusCode);
    }
    expect(statuses).toEqual([202, 202, 202, 202, 429]);
  });
});
