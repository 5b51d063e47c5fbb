import type { FastifyInstance } from 'fastify';
import { getUserStores } from '@keyport/shared/contracts/auth';
import * as contracts from '@keyport/shared/contracts/connect';
import { registerRoute } from '../../http/route';

export async function connectRoutes(app: FastifyInstance) {
  const connect = app.services.connect;
  registerRoute(app, contracts.saveDomains, ({ user, body }) => connect.saveDomains(user.id, body));
  registerRoute(app, getUserStores, async ({ user }) => ({ stores: await connect.listUserStores(user.id) }));
  registerRoute(app, contracts.getKeyToken, ({ user, body }) => connect.getToken(user.id, body.key));
  registerRoute(app, contracts.getJwks, async (_input, _request, reply) => {
    reply.header('cache-control', 'public, max-age=3600');
    return connect.jwks();
  });
}
