import type { FastifyInstance } from 'fastify';
import * as contracts from '@keyport/shared/contracts/keys';
import { registerRoute } from '../../http/route';

export async function keysRoutes(app: FastifyInstance) {
  const keys = app.services.keys;
  registerRoute(app, contracts.getKeys, ({ user }) => keys.listKeys(user.id));
}
