import cors, { type FastifyCorsOptions } from '@fastify/cors';
import type { FastifyInstance, FastifyReply, onRequestHookHandler } from 'fastify';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * This route's CORS (`publicCors`): @fastify/cors reads it. Routes without it stay same-origin; `false` (contract
     * routes' default, http/route.ts) skips the plugin's work for the route altogether.
     */
    cors?: FastifyCorsOptions | false;
  }
}

/**
 * Open CORS for the public routes a storefront calls from any origin (issue 13, ADR 031): the license validation and
 * the JWKS. Any origin, never credentials (the answers depend on no cookie and no session), and a preflight that
 * allows the route's method and a JSON body's Content-Type. Other routes stay same-origin. @fastify/cors does it
 * (ADR 043): off for every route, on for a route whose config carries `cors: publicCors(…)`; the validation route's
 * own answers alone get their two headers from `fixedCorsHeaders` (measured cheaper on that hot route, ADR 043).
 */
export const PUBLIC_CORS_MAX_AGE_SECONDS = 24 * 60 * 60;

/** A public route's CORS options (what `publicCors` answers). */
export interface PublicCors extends FastifyCorsOptions {
  origin: '*';
  exposedHeaders: string[];
}

/**
 * Registers @fastify/cors, off by default. Its hook runs when the request arrives (after the security headers and the
 * global rate limit, registered before it), so an answer keeps the CORS headers whatever Fastify then answers, an error
 * included.
 */
export async function registerCors(app: FastifyInstance): Promise<void> {
  await app.register(cors, { origin: false, hook: 'onRequest' });
}

/**
 * A public route's CORS: readable from any origin with `exposedHeaders`, no credentials; its preflight (any OPTIONS
 * request to the path, as browsers send it or not) answers 204 with the method and `content-type`, kept a day.
 */
export function publicCors(method: 'GET' | 'POST', exposedHeaders: string[] = []): PublicCors {
  return {
    origin: '*',
    credentials: false,
    methods: [method, 'OPTIONS'],
    allowedHeaders: ['content-type'],
    exposedHeaders,
    maxAge: PUBLIC_CORS_MAX_AGE_SECONDS,
    strictPreflight: false,
  };
}

/**
 * The preflight route of a public path: @fastify/cors answers it from its hook with the route's `cors` config (its
 * own `OPTIONS *` route has none, so other paths' preflights stay refused). HTTP plumbing, not an API operation: it has
 * no contract and stays out of the OpenAPI document.
 */
export function registerPublicPreflight(app: FastifyInstance, path: string, routeCors: PublicCors): void {
  app.route({
    method: 'OPTIONS',
    url: path,
    schema: { hide: true },
    config: { cors: routeCors },
    // Not reached: the CORS hook answers every OPTIONS request of a route with CORS on.
    handler: async (_request, reply) => reply.code(204).send(),
  });
}

/**
 * The hand-written part kept (ADR 043): the headers @fastify/cors sets on a public route's answer (any origin, the
 * exposed headers; the tests compare both), set by a route's own onRequest hook. For the license validation only:
 * there @fastify/cors cost about 9 µs of CPU per request (Fastify's `reply.header` and the plugin's per-request
 * options), some 5–9 % of the route. Its preflight stays the plugin's. ADR 047: one precomputed object into the
 * reply's headers, where the security headers are too: Node then gets every header in one `writeHead` object (a
 * header set on the raw response made it validate and store each of the reply's again, one by one).
 */
export function fixedCorsHeaders(routeCors: PublicCors): onRequestHookHandler {
  const exposed = routeCors.exposedHeaders.join(', ');
  const headers = Object.freeze({
    'access-control-allow-origin': routeCors.origin,
    ...(exposed ? { 'access-control-expose-headers': exposed } : {}),
  });
  return (_request, reply, done) => {
    reply.headers(headers);
    done();
  };
}

/**
 * Helmet's same-origin resource policy, where it was set, would stop a no-cors embed; a public answer is meant for
 * every origin. (Routes with API security headers have none: no resource policy means any origin already.) The one
 * part of CORS @fastify/cors does not cover.
 */
export function openResourcePolicy(reply: FastifyReply): void {
  // The security headers are the reply's own (http/security-headers.ts).
  if (reply.hasHeader('cross-origin-resource-policy')) reply.header('cross-origin-resource-policy', 'cross-origin');
}
