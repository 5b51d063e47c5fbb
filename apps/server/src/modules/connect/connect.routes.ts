import type { FastifyInstance } from 'fastify';
import { getUserStores } from '@keyport/shared/contracts/auth';
import * as contracts from '@keyport/shared/contracts/connect';
import { openResourcePolicy, publicCors, registerPublicPreflight } from '../../http/cors';
import { registerRoute } from '../../http/route';

export async function connectRoutes(app: FastifyInstance) {
  const connect = app.services.connect;
  registerRoute(app, contracts.saveDomains, ({ user, body }) => connect.saveDomains(user.id, body));
  registerRoute(app, getUserStores, async ({ user }) => ({ stores: await connect.listUserStores(user.id) }));
  registerRoute(app, contracts.getKeyToken, ({ user, body }) => connect.getToken(user.id, body.key));
  // Public and CORS open (issue 13): a storefront verifies the validation API's signed answers with it; a CDN or a
  // browser may keep it an hour (ADR 031).
  const cors = publicCors('GET');
  registerRoute(
    app,
    contracts.getJwks,
    async (_input, _request, reply) => {
      openResourcePolicy(reply);
      reply.header('cache-control', 'public, max-age=3600');
      return connect.jwks();
    },
    { config: { cors } },
  );
  registerPublicPreflight(app, contracts.getJwks.path, cors);
}
