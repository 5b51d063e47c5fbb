import { beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './helpers/test-app';

/** Helmet's headers with the portal's CSP: on documents (pages, files, and every answer of a route without a contract). */
const DOCUMENT_HEADERS = {
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

/** A JSON answer of the API (ADR 048): whatever its status. */
const JSON_HEADERS = {
  'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
  'cross-origin-resource-policy': 'same-origin',
  'strict-transport-security': 'max-age=31536000; includeSubDomains',
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
};
const DOCUMENT_ONLY = Object.keys(DOCUMENT_HEADERS).filter((name) => !(name in JSON_HEADERS));

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});

describe('security headers', () => {
  it("are an API's on a JSON answer, an error, a HEAD and a refused body", async () => {
    const answers = await Promise.all([
      t.app.inject({ url: '/health' }),
      t.app.inject({ url: '/keys/' }),
      t.app.inject({ method: 'HEAD', url: '/health' }),
      t.app.inject({ method: 'POST', url: '/auth/login', payload: { email: 'x' } }),
    ]);
    expect(answers.map((answer) => answer.statusCode)).toEqual([200, 401, 200, 400]);
    for (const answer of answers) {
      expect(answer.headers).toMatchObject(JSON_HEADERS);
      for (const name of DOCUMENT_ONLY) expect(answer.headers[name], name).toBeUndefined();
      expect(answer.headers['x-powered-by']).toBeUndefined();
    }
  });

  it("are a document's on an answer no contract declares, and on a file", async () => {
    const missing = await t.app.inject({ url: '/no-such-page' });
    expect(missing.statusCode).toBe(404);
    expect(missing.headers).toMatchObject(DOCUMENT_HEADERS);
    expect(missing.headers['x-powered-by']).toBeUndefined();
    // The API's description is a page a browser renders.
    const docs = await t.app.inject({ url: '/api/docs/' });
    expect(docs.statusCode).toBe(200);
    expect(docs.headers).toMatchObject(DOCUMENT_HEADERS);
  });
});
