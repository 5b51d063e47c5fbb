import { beforeAll, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './helpers/test-app';

/** ADR 031: the validation route's own per-IP limit; its refusals stay readable cross-origin. */
let t: TestApp;

beforeAll(async () => {
  t = await createTestApp({ LICENSE_VALIDATE_RATE_LIMIT_PER_MINUTE: '3' });
});

const validate = (ip: string) =>
  t.app.inject({
    method: 'POST',
    url: '/api/licenses/validate',
    remoteAddress: ip,
    headers: { origin: 'https://shop.example.com' },
    payload: { token: 'not-a-token', domain: 'shop.example.com', theme_version: '1.0.0', theme_edition: 'LITE' },
  });

it('answers the allowance per IP, then 429 with Retry-After and open CORS; another IP is unaffected', async () => {
  for (let i = 0; i < 3; i += 1) expect((await validate('10.88.0.1')).json()).toMatchObject({ code: 'MALFORMED' });
  const refused = await validate('10.88.0.1');
  expect(refused.statusCode).toBe(429);
  expect(refused.json()).toMatchObject({ code: 'rate_limited' });
  expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
  expect(refused.headers['access-control-allow-origin']).toBe('*');
  expect((await validate('10.88.0.2')).statusCode).toBe(200);
});

it('a body that is not the contract shape is a 400, readable cross-origin', async () => {
  const response = await t.app.inject({
    method: 'POST',
    url: '/api/licenses/validate',
    remoteAddress: '10.88.0.3',
    payload: { token: 'x' },
  });
  expect(response.statusCode).toBe(400);
  expect(response.headers['access-control-allow-origin']).toBe('*');
});

it('a body over the route’s limit is a 413, readable cross-origin with the signature header exposed', async () => {
  const response = await t.app.inject({
    method: 'POST',
    url: '/api/licenses/validate',
    remoteAddress: '10.88.0.4',
    headers: { origin: 'https://shop.example.com' },
    payload: {
      token: 'x'.repeat(20 * 1024),
      domain: 'shop.example.com',
      theme_version: '1.0.0',
      theme_edition: 'LITE',
    },
  });
  expect(response.statusCode).toBe(413);
  expect(response.headers['access-control-allow-origin']).toBe('*');
  expect(response.headers['access-control-expose-headers']).toBe('x-keyport-signature');
});
