import type { FastifyInstance } from 'fastify';
import * as contracts from '@keyport/shared/contracts/credits';
import { registerRoute } from '../../http/route';

/** Credit packs: the team's catalogue and staff pricing. Paying for one is modules/payments' (same orders). */
export async function creditPacksRoutes(app: FastifyInstance) {
  const { creditPacks } = app.services;

  registerRoute(app, contracts.getCreditPacks, async ({ user }) => ({ packs: await creditPacks.listForBuyer(user) }));

  registerRoute(app, contracts.staffListCreditPacks, async () => ({ packs: await creditPacks.staffList() }));
  registerRoute(app, contracts.staffCreateCreditPack, async ({ user, body }) => ({
    pack: await creditPacks.create(user.id, body),
  }));
  registerRoute(app, contracts.staffUpdateCreditPack, async ({ user, params, body }) => ({
    pack: await creditPacks.update(user.id, Number(params.id), body),
  }));
}
