import { beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './helpers/test-app';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ SHOP_URL: 'https://shop.example.org/themes' });
});

describe('system routes and bad input', () => {
  it('GET /health checks the database', async () => {
    const response = await t.app.inject({ url: '/health' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: 'ok' });
  });

  it('serves the OpenAPI document generated from the contracts, and a docs page', async () => {
    const doc = (await t.app.inject({ url: '/api/openapi.json' })).json();
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining([
        '/auth/login',
        '/auth/signup',
        '/keys',
        '/keys/delete',
        '/staff/keys',
        '/staff/homepage-settings',
        '/config',
      ]),
    );
    expect(doc.paths['/auth/login'].post.requestBody.content['application/json'].schema.properties).toHaveProperty(
      'email',
    );
    const docs = await t.app.inject({ url: '/api/docs' });
    expect([200, 302]).toContain(docs.statusCode);
  });

  it('answers unknown /api routes with a JSON 404', async () => {
    const response = await t.app.inject({ url: '/api/does-not-exist' });
    expect(response.statusCode).toBe(404);
    expect(response.json().error).toMatch(/Not found/);
  });

  it('rejects malformed JSON with 400 and a body over 1 MB with 413', async () => {
    const bad = await t.app.inject({
      method: 'POST',
      url: '/auth/login',
      headers: { 'content-type': 'application/json' },
      payload: '{"email":',
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error).toBeTypeOf('string');
    const big = await t.app.inject({
      method: 'POST',
      url: '/auth/login',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ email: 'a@b.co', password: 'x'.repeat(1024 * 1024) }),
    });
    expect(big.statusCode).toBe(413);
    expect(big.json().error).toBeTypeOf('string');
  });

  it("answers invalid input with the contract's message, word for word", async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/auth/signup',
      payload: { email: 'a@b.co', password: 'short', name: 'A' },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ error: 'Password must be at least 8 characters' });
  });

  it('GET /config gives anyone the external links from the configuration, and no video URL unless one is set', async () => {
    const response = await t.app.inject({ url: '/config' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      links: {
        shopUrl: 'https://shop.example.org/themes',
        productUrl: 'https://example.com/products/theme',
        appStoreUrl: 'https://apps.shopify.com/',
        sellStoreFormUrl: 'https://example.com/sell-your-store',
        setupGuideVideoUrl: null,
      },
      // The sandboxes (no STRIPE_*/PAYPAL_*): the web app shows its "Sandbox — no real money" banner.
      sandbox: true,
    });
  });

  it('sets security headers', async () => {
    const response = await t.app.inject({ url: '/health' });
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    // A JSON answer: the API's policy, nothing loads or frames it (ADR 048).
    expect(response.headers['content-security-policy']).toBe("default-src 'none'; frame-ancestors 'none'");
  });
});
