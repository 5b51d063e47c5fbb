import type { FastifyInstance } from 'fastify';
import * as contracts from '@keyport/shared/contracts/licenses';
import { allowAnyOrigin, registerPublicPreflight } from '../../http/cors';
import { registerRoute } from '../../http/route';

export async function licensesRoutes(app: FastifyInstance) {
  const licenses = app.services.licenses;

  // Every answer of the validation route is readable from any origin, its errors (400, 429) included: this plugin's
  // hooks only see this plugin's routes.
  app.addHook('onSend', async (request, reply, payload) => {
    if (request.routeOptions.url === contracts.validateLicense.path) {
      allowAnyOrigin(reply, [contracts.LICENSE_SIGNATURE_HEADER]);
    }
    return payload;
  });

  // Public, CORS open, signed (ADR 031). The global per-IP limit is replaced by the route's own, more generous one;
  // a request is a token and three short fields, so the body limit is small. Storefronts call it on page views: its
  // requests are not logged one by one (`logLevel: 'warn'`; errors and warnings still are, ADR 031 "Performance").
  registerRoute(
    app,
    contracts.validateLicense,
    async ({ body }, request, reply) => {
      const signed = await licenses.validate(body, request.ip);
      reply
        .header(contracts.LICENSE_SIGNATURE_HEADER, signed.signature)
        .header('cache-control', `private, max-age=${signed.maxAgeSeconds}`)
        // The signed bytes are the body: no second serialization may reorder or re-encode them.
        .serializer(() => signed.body);
      return signed.answer;
    },
    { config: { rateLimit: false }, bodyLimit: 16 * 1024, logLevel: 'warn' },
  );
  registerPublicPreflight(app, contracts.validateLicense.path, 'POST');

  registerRoute(app, contracts.getKeysHealth, ({ user }) => licenses.keysHealth(user.id));
  registerRoute(app, contracts.staffListSightings, ({ query }) => licenses.listSightings(query));
}
