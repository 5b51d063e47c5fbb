import { beforeAll, describe, expect, it } from 'vitest';
import { auth, createTestApp, signUp, type TestApp } from './helpers/test-app';
import { containsNul } from '../src/http/validation';

/** Issue 7, "Correctness and security": the answers a hostile or unlucky client gets from the HTTP layer. */

describe('the global rate limit answers 429 with the error envelope', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ RATE_LIMIT_PER_MINUTE: '3' });
  });

  it('on a contract route and on an unknown path: 429, Retry-After and {error, code}', async () => {
    const ip = '10.9.9.1';
    for (let i = 0; i < 3; i++) {
      expect((await t.app.inject({ url: '/health', remoteAddress: ip })).statusCode).toBe(200);
    }
    const limited = await t.app.inject({ url: '/health', remoteAddress: ip });
    expect(limited.statusCode).toBe(429);
    expect(limited.headers['retry-after']).toMatch(/^\d+$/);
    expect(limited.json()).toEqual({
      error: expect.stringMatching(/^Too many requests\. Try again in \d+ seconds?\.$/),
      code: 'rate_limited',
    });

    const unknown = await t.app.inject({ url: '/no/such/path', remoteAddress: ip });
    expect(unknown.statusCode).toBe(429);
    expect(unknown.json()).toMatchObject({ code: 'rate_limited', error: expect.stringMatching(/^Too many/) });

    const post = await t.app.inject({
      method: 'POST',
      url: '/auth/login',
      payload: { email: 'a@b.co', password: 'x' },
      remoteAddress: ip,
    });
    expect(post.statusCode).toBe(429);
    expect(post.json().code).toBe('rate_limited');
  });
});

describe('a NUL byte in any string field is refused at the contract', () => {
  let t: TestApp;
  let token: string;
  let staffToken: string;
  beforeAll(async () => {
    t = await createTestApp();
    token = (await signUp(t, 'nul@example.com')).token;
    staffToken = (await signUp(t, 'nul-staff@example.com', { role: 'staff' })).token;
  });

  const cases: { name: string; method: 'POST' | 'PUT'; url: string; staff?: boolean; body: object }[] = [
    {
      name: 'sign-up name',
      method: 'POST',
      url: '/auth/signup',
      body: { email: 'x@y.co', password: 'long-enough', name: 'a\u0000b' },
    },
    {
      name: 'sign-up email',
      method: 'POST',
      url: '/auth/signup',
      body: { email: 'x\u0000@y.co', password: 'long-enough', name: 'A' },
    },
    { name: 'profile name', method: 'PUT', url: '/auth/me', body: { name: 'Bad\u0000Name' } },
    { name: 'add key', method: 'POST', url: '/keys/', body: { key: 'ABCDE-\u0000' } },
    { name: 'save domains', method: 'PUT', url: '/keys/', body: { key: 'K\u0000', main_url: 'shop.com' } },
    { name: 'save domains, domain', method: 'PUT', url: '/keys/', body: { key: 'KEY', main_url: 'sh\u0000op.com' } },
    { name: 'key token', method: 'POST', url: '/keys/token', body: { key: 'K\u0000' } },
    { name: 'release info', method: 'POST', url: '/staff/get-releases', body: { key: 'K\u0000' } },
    { name: 'disconnect', method: 'POST', url: '/keys/delete', body: { apiKey: 'K\u0000' } },
    {
      name: 'staff feed',
      method: 'PUT',
      url: '/staff/homepage-settings',
      staff: true,
      body: { publish: true, reason: 'NUL check', updates: [{ title: 'T\u0000', body: 'B', date: '2026-01-01' }] },
    },
  ];

  for (const c of cases) {
    it(`${c.name}: 400 invalid_characters, nothing written`, async () => {
      const response = await t.app.inject({
        method: c.method,
        url: c.url,
        headers: auth(c.staff ? staffToken : token),
        payload: c.body,
      });
      expect(response.statusCode, response.body).toBe(400);
      expect(response.json()).toEqual({
        error: 'Text fields must not contain NUL characters.',
        code: 'invalid_characters',
      });
    });
  }

  it('in a query string and a path parameter too', async () => {
    const query = await t.app.inject({ url: '/staff/homepage-settings?preview=%00', headers: auth(token) });
    expect(query.statusCode).toBe(400);
    expect(query.json().code).toBe('invalid_characters');
    const param = await t.app.inject({ url: '/api/releases/1%00/download?key=1&expires=1&sig=x' });
    expect(param.statusCode).toBe(400);
  });
});

describe('every error carries a machine-readable code', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });

  it('contract messages are answered word for word; zod messages name the field', async () => {
    const spec = await t.app.inject({
      method: 'POST',
      url: '/auth/signup',
      payload: { email: 'a@b.co', password: 'short', name: 'A' },
    });
    expect(spec.json()).toMatchObject({ error: 'Password must be at least 8 characters', code: 'invalid_request' });
    const generic = await t.app.inject({
      method: 'POST',
      url: '/auth/signup',
      payload: { email: 'a@b.co', password: 'long-enough', name: 7 },
    });
    expect(generic.statusCode).toBe(400);
    expect(generic.json()).toMatchObject({ error: expect.stringMatching(/^name: /), code: 'invalid_request' });
  });

  it('401, 404 and malformed JSON', async () => {
    const unauthenticated = await t.app.inject({ url: '/keys/' });
    expect(unauthenticated.json()).toMatchObject({ error: 'Authentication required', code: 'unauthorized' });
    const unknown = await t.app.inject({ url: '/api/nothing' });
    expect(unknown.json()).toMatchObject({ error: 'Not found: GET /api/nothing', code: 'not_found' });
    const malformed = await t.app.inject({
      method: 'POST',
      url: '/auth/login',
      headers: { 'content-type': 'application/json' },
      payload: '{"email":',
    });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json().code).toBe('invalid_json');
  });
});

describe('containsNul', () => {
  it('finds a NUL in a string, a key, an array item and a nested value, and nowhere else', () => {
    expect(containsNul('a\u0000')).toBe(true);
    expect(containsNul({ ['k\u0000']: 1 })).toBe(true);
    expect(containsNul({ list: ['ok', 'b\u0000d'] })).toBe(true);
    expect(containsNul([{ deep: { deeper: ['\u0000'] } }])).toBe(true);
    expect(containsNul({ list: ['ok', 2, null, true], nested: { text: 'fine' } })).toBe(false);
    expect(containsNul(Object.create({ ['inherited\u0000']: 'x\u0000' }))).toBe(false);
    expect(containsNul(null)).toBe(false);
  });
});
