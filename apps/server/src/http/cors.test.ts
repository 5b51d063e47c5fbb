import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { publicCors, fixedCorsHeaders, registerCors, registerPublicPreflight } from './cors';

/**
 * ADR 043: the validation route sets its CORS headers by hand (`fixedCorsHeaders`), every other public route through
 * @fastify/cors. Both must answer the same headers, on success and on error alike.
 */
async function app() {
  const server = Fastify();
  await registerCors(server);
  const cors = publicCors('POST', ['x-signature']);
  const fail = (body: unknown) => {
    if ((body as { fail?: boolean } | undefined)?.fail) throw Object.assign(new Error('refused'), { statusCode: 400 });
    return { ok: true };
  };
  server.post('/by-plugin', { config: { cors } }, async (request) => fail(request.body));
  server.post('/by-hand', { onRequest: fixedCorsHeaders(cors) }, async (request) => fail(request.body));
  registerPublicPreflight(server, '/by-plugin', cors);
  registerPublicPreflight(server, '/by-hand', cors);
  server.post('/private', async () => ({ ok: true }));
  await server.ready();
  return server;
}

const corsHeaders = (headers: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(headers).filter(([name]) => name.startsWith('access-control-')));

describe('CORS of the public routes', () => {
  it('answers the same headers by hand as @fastify/cors does, on success and on error', async () => {
    const server = await app();
    for (const payload of [{}, { fail: true }]) {
      const [byPlugin, byHand] = await Promise.all(
        ['/by-plugin', '/by-hand'].map((url) =>
          server.inject({ method: 'POST', url, headers: { origin: 'https://shop.example.com' }, payload }),
        ),
      );
      expect(byHand!.statusCode).toBe(byPlugin!.statusCode);
      expect(corsHeaders(byPlugin!.headers)).toEqual({
        'access-control-allow-origin': '*',
        'access-control-expose-headers': 'x-signature',
      });
      expect(corsHeaders(byHand!.headers)).toEqual(corsHeaders(byPlugin!.headers));
    }
  });

  it('answers a public path’s preflight, with or without the browser’s preflight headers; refuses the others', async () => {
    const server = await app();
    for (const headers of [{ origin: 'https://shop.example.com', 'access-control-request-method': 'POST' }, {}]) {
      const preflight = await server.inject({ method: 'OPTIONS', url: '/by-hand', headers });
      expect(preflight.statusCode).toBe(204);
      expect(corsHeaders(preflight.headers)).toEqual({
        'access-control-allow-origin': '*',
        'access-control-expose-headers': 'x-signature',
        'access-control-allow-methods': 'POST, OPTIONS',
        'access-control-allow-headers': 'content-type',
        'access-control-max-age': '86400',
      });
    }
    const refused = await server.inject({
      method: 'OPTIONS',
      url: '/private',
      headers: { origin: 'https://shop.example.com', 'access-control-request-method': 'POST' },
    });
    expect(refused.statusCode).toBe(404);
    expect(corsHeaders(refused.headers)).toEqual({});
    const privateAnswer = await server.inject({
      method: 'POST',
      url: '/private',
      headers: { origin: 'https://shop.example.com' },
    });
    expect(corsHeaders(privateAnswer.headers)).toEqual({});
  });
});
