import type { FastifyInstance } from 'fastify';
import * as contracts from '@keyport/shared/contracts/licenses';
import { allowAnyOrigin, registerPublicPreflight } from '../../http/cors';
import { createLazyChildLoggerFactory } from '../../http/lazy-child-logger';
import { registerRoute } from '../../http/route';

export async function licensesRoutes(app: FastifyInstance) {
  const licenses = app.services.licenses;

  // Public, CORS open, signed (ADR 031). Every answer is readable from any origin, its errors (400, 413, 429) included:
  // the CORS headers are set when the request arrives, and an error's answer keeps them. The global per-IP limit is
  // replaced by the route's own, more generous one; a request is a token and three short fields, so the body limit is
  // small. Storefronts call it on page views (ADR 031 "Performance"): it never reads a session, its requests are not
  // logged one by one (`logLevel: 'warn'`, and no per-request logger is built unless something is logged), and it
  // gets the security headers of an API answer rather than a document's.
  registerRoute(
    app,
    contracts.validateLicense,
    async ({ body }, request, reply) => {
      const signed = await licenses.validate(body, request.ip);
      // On the raw response, as the CORS headers (http/cors.ts): Fastify's `reply.header` costs more here.
      reply.raw.setHeader(contracts.LICENSE_SIGNATURE_HEADER, signed.signature);
      reply.raw.setHeader('cache-control', signed.cacheControl);
      // The signed bytes are the body: no second serialization may reorder or re-encode them.
      reply.serializer(() => signed.body);
      return signed.answer;
    },
    {
      config: { rateLimit: false, securityHeaders: 'api' },
      bodyLimit: 16 * 1024,
      logLevel: 'warn',
      childLoggerFactory: createLazyChildLoggerFactory(),
      session: 'ignored',
      onRequest: (_request, reply, done) => {
        allowAnyOrigin(reply, [contracts.LICENSE_SIGNATURE_HEADER]);
        done();
      },
    },
  );
  registerPublicPreflight(app, contracts.validateLicense.path, 'POST');

  registerRoute(app, contracts.getKeysHealth, ({ user }) => licenses.keysHealth(user.id));
  registerRoute(app, contracts.staffListSightings, ({ query }) => licenses.listSightings(query));
}
