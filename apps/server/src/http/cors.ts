import type { FastifyInstance, FastifyReply } from 'fastify';

/**
 * Open CORS for the public routes a storefront calls from any origin (issue 13, ADR 031): the license validation and
 * the JWKS. Any origin, never credentials (the answers depend on no cookie and no session), and a preflight that
 * allows the route's method and a JSON body's Content-Type. Other routes stay same-origin.
 */
export const PUBLIC_CORS_MAX_AGE_SECONDS = 24 * 60 * 60;

/**
 * The headers of a public answer: readable from any origin, the signature header included. Set on the raw response
 * (as Helmet sets its headers), where they stay whatever Fastify then answers, an error included; and Fastify's own
 * `reply.header` cost more than the validation's own work on the hot route (ADR 031 "Performance").
 */
export function allowAnyOrigin(reply: FastifyReply, exposeHeaders: string[] = []): void {
  reply.raw.setHeader('access-control-allow-origin', '*');
  if (exposeHeaders.length > 0) reply.raw.setHeader('access-control-expose-headers', exposeHeaders.join(', '));
  // Helmet's same-origin resource policy, where it was set, would stop a no-cors embed; these answers are meant for
  // every origin. (Routes with API security headers have none: no resource policy means any origin already.)
  if (reply.raw.hasHeader('cross-origin-resource-policy')) {
    reply.raw.setHeader('cross-origin-resource-policy', 'cross-origin');
  }
}

/**
 * Answers the browser's preflight for `path`: 204 with the allowed method and `content-type`. HTTP plumbing, not an
 * API operation: it has no contract and stays out of the OpenAPI document.
 */
export function registerPublicPreflight(app: FastifyInstance, path: string, method: 'GET' | 'POST'): void {
  app.route({
    method: 'OPTIONS',
    url: path,
    schema: { hide: true },
    handler: async (_request, reply) => {
      allowAnyOrigin(reply);
      reply
        .header('access-control-allow-methods', `${method}, OPTIONS`)
        .header('access-control-allow-headers', 'content-type')
        .header('access-control-max-age', String(PUBLIC_CORS_MAX_AGE_SECONDS))
        .code(204);
      return reply.send();
    },
  });
}
