import type { FastifyInstance } from 'fastify';
import * as contracts from '@keyport/shared/contracts/keys';
import { registerRoute } from '../../http/route';

export async function keysRoutes(app: FastifyInstance) {
  const keys = app.services.keys;
  registerRoute(app, contracts.getKeys, ({ user }) => keys.listKeys(user.id));
  registerRoute(app, contracts.addKey, async ({ user, body }, request) => ({
    key: await keys.addKey(user.id, body.key, request.ip),
  }));
  registerRoute(app, contracts.disconnectKey, async ({ user, body }) => {
    await keys.disconnectKey(user.id, body.apiKey);
    return { success: true as const };
  });
}
