import type { FastifyInstance } from 'fastify';
import * as contracts from '@keyport/shared/contracts/staff';
import { registerRoute } from '../../http/route';

export async function staffRoutes(app: FastifyInstance) {
  registerRoute(app, contracts.mintKeys, async ({ user, body }) => ({
    keys: await app.services.customersAdmin.mintUnclaimed(user.id, body),
  }));
}
