import { beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './helpers/test-app';

/** Helmet's headers with the portal's CSP: on every answer, whatever its status or route. */
const SECURITY_HEADERS = {
  'content-security-policy':
    "default-src 'self';base-uri 'self';font-src 'self' https: data:;form-action 'self';frame-ancestors 'self';" +
    "img-src 'self' data: https:;object-src 'none';script-src 'self';script-src-attr 'none';" +
    "style-src 'self' 'unsafe-inline';" +
    "frame-src 'self' https://www.youtube-nocookie.com https://www.youtube.com https://player.vimeo.com;" +
    "connect-src 'self'",
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
  'origin-agent-cluster': '?1',
  'referrer-policy': 'no-referrer',
  'strict-transport-security': 'max-age=31536000; includeSubDomains',
  'x-content-type-options': 'nosniff',
  'x-dns-prefetch-control': 'off',
  'x-download-options': 'noopen',
  'x-frame-options': 'SAMEORIGIN',
  'x-permitted-cross-domain-policies': 'none',
  'x-xss-protection': '0',
};

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});

describe('security headers', () => {
  it('are on a JSON answer, an error, a 404, a HEAD and an OPTIONS request', async () => {
    const answers = await Promise.all([
      t.app.inject({ url: '/health' }),
      t.app.inject({ url: '/keys/' }),
      t.app.inject({ url: '/no-such-page' }),
      t.app.inject({ method: 'HEAD', url: '/health' }),
      t.app.inject({ method: 'POST', url: '/auth/login', payload: { email: 'x' } }),
    ]);
    expect(answers.map((answer) => answer.statusCode)).toEqual([200, 401, 404, 200, 400]);
    for (const answer of answers) {
      expect(answer.headers).toMatchObject(SECURITY_HEADERS);
      expect(answer.headers['x-powered-by']).toBeUndefined();
    }
  });
});
