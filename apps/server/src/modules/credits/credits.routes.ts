import type { FastifyInstance } from 'fastify';
import * as contracts from '@keyport/shared/contracts/credits';
import { registerRoute } from '../../http/route';

/** §7 credits: balance, history, redeem products, redeem, /keys/create, store reports; staff adjustments, products, report queue. */
export async function creditsRoutes(app: FastifyInstance) {
  const credits = app.services.credits;

  registerRoute(app, contracts.getCreditsBalance, ({ user }) => credits.balance(user.id));
  registerRoute(app, contracts.getCreditHistory, async ({ user }) => ({
    entries: await credits.customerHistory(user.id),
  }));
  registerRoute(app, contracts.getRedeemProducts, async () => ({
    redeem_products: await credits.listActiveProducts(),
    error: null,
  }));
  registerRoute(app, contracts.redeemCredits, async ({ user, body }) => ({
    error: null,
    ...(await credits.redeem(user.id, body.redeem_product_id)),
  }));
  registerRoute(app, contracts.createKeyWithCredits, async ({ user, body }) => ({
    error: null,
    ...(await credits.createKey(user.id, body.type)),
  }));
  registerRoute(app, contracts.reportStores, ({ user, body }) => credits.reportStores(user.id, body.storeDomains));

  registerRoute(app, contracts.staffAdjustCredits, ({ user, body }) => credits.adjust(user.id, body));
  registerRoute(app, contracts.staffListRedeemProducts, async () => ({
    redeem_products: await credits.staffListProducts(),
  }));
  registerRoute(app, contracts.staffCreateRedeemProduct, async ({ user, body }) => ({
    redeem_product: await credits.createProduct(user.id, body),
  }));
  registerRoute(app, contracts.staffUpdateRedeemProduct, async ({ user, params, body }) => ({
    redeem_product: await credits.updateProduct(user.id, Number(params.id), body),
  }));
  registerRoute(app, contracts.staffDeleteRedeemProduct, async ({ user, params, body }) => {
    await credits.retireProduct(user.id, Number(params.id), body.reason);
  });
  registerRoute(app, contracts.staffListReports, ({ query }) => credits.listReports(query));
  registerRoute(app, contracts.staffApproveReport, async ({ user, params, body }) => ({
    report: (await credits.approveReport(user.id, Number(params.id), body.note)).report,
  }));
  registerRoute(app, contracts.staffRejectReport, ({ user, params, body }) =>
    credits.rejectReport(user.id, Number(params.id), body.note),
  );
}
