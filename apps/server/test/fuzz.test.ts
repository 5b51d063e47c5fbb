import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { seedDemoData } from '../src/db/seed';
import { createTestApp, type TestApp } from './helpers/test-app';

let t: TestApp;
let token: string;
const routes: { method: string; url: string }[] = [];

beforeAll(async () => {
  t = await createTestApp({ RATE_LIMIT_PER_MINUTE: '100000', AUTH_RATE_LIMIT_MAX: '100000' });
  await seedDemoData(t.app.services, t.app.log);
  token = (
    await t.app.inject({
      method: 'POST',
      url: '/auth/login',
      payload: { email: 'staff@example.com', password: 'staff-password' },
    })
  ).json().token;
  for (const line of t.app.printRoutes({ commonPrefix: false }).split('\n')) {
    const match = /([/\w.:*-]+) \(([A-Z, ]+)\)/.exec(line.replace(/[│├└─\s]+(?=\/)/, ''));
    if (!match) continue;
    for (const method of match[2]!.split(', '))
      if (method !== 'HEAD' && method !== 'OPTIONS') routes.push({ method, url: match[1]! });
  }
});

const jsonValue = fc.jsonValue({ maxDepth: 3 });
const headerValue = fc.oneof(fc.string(), fc.constantFrom('Token ', 'Bearer x', 'Token aaaaaaaaaaaaaaaaaaaaaaaa'));

describe('no client input produces a 5xx', () => {
  it('found routes to probe', () => {
    expect(routes.length).toBeGreaterThan(8);
    expect(routes).toContainEqual({ method: 'POST', url: '/auth/login' });
  });

  it('random bodies, queries and headers on every route', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.nat(),
        fc.oneof(jsonValue, fc.string(), fc.constant(undefined)),
        fc.dictionary(fc.string({ maxLength: 8 }), fc.string({ maxLength: 20 }), { maxKeys: 3 }),
        fc.record({
          authorization: fc.option(headerValue),
          'content-type': fc.option(
            fc.constantFrom(
              'application/json',
              'text/plain',
              'application/x-www-form-urlencoded',
              'multipart/form-data',
              '',
            ),
          ),
        }),
        fc.boolean(),
        fc.string({ maxLength: 12 }),
        async (index, body, query, headers, signedIn, param) => {
          const route = routes[index % routes.length]!;
          const url = route.url.replace(/:\w+|\*/g, encodeURIComponent(param) || 'x');
          const requestHeaders: Record<string, string> = {};
          if (headers['content-type']) requestHeaders['content-type'] = headers['content-type'];
          if (signedIn) requestHeaders.authorization = `Token ${token}`;
          else if (headers.authorization) requestHeaders.authorization = headers.authorization;
          const response = await t.app.inject({
            method: route.method as 'GET',
            url,
            query,
            headers: requestHeaders,
            payload:
              body === undefined || route.method === 'GET'
                ? undefined
                : typeof body === 'string'
                  ? body
                  : JSON.stringify(body),
          });
          expect(response.statusCode, `${route.method} ${url} → ${response.body}`).toBeLessThan(500);
          if (response.statusCode >= 400 && response.headers['content-type']?.toString().includes('json')) {
            expect(typeof response.json().error).toBe('string');
            expect(typeof response.json().code).toBe('string');
          }
        },
      ),
      { numRuns: 400 },
    );
  });
});
