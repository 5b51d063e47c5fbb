import type { FastifyInstance } from 'fastify';
import * as contracts from '@keyport/shared/contracts/upgrades';
import { UPGRADE_PATH_TIERS, type UpgradePath } from '@keyport/shared/domain/upgrade-paths';
import { registerRoute } from '../../http/route';
import type { UpgradePrice } from './upgrades.service';

/** §7 upgrade options, token redemption, purchased upgrades; staff prices and tokens. */
/** The three redeem routes share one shape (they differ in path and operationId only). */
type RedeemContract =
  typeof contracts.redeemTokenToRegular | typeof contracts.redeemTokenToPro | typeof contracts.redeemTokenLiteToPro;

export async function upgradesRoutes(app: FastifyInstance) {
  const upgrades = app.services.upgrades;

  registerRoute(app, contracts.getUpgradeOptions, async ({ user, body }) => {
    const { key, options } = await upgrades.optionsFor(user.id, body.key);
    return { key, options };
  });

  for (const [contract, path] of [
    [contracts.redeemTokenToRegular, 'LITE_TO_REGULAR'],
    [contracts.redeemTokenToPro, 'REGULAR_TO_PRO'],
    [contracts.redeemTokenLiteToPro, 'LITE_TO_PRO'],
  ] as const satisfies readonly (readonly [RedeemContract, UpgradePath])[]) {
    registerRoute<RedeemContract>(app, contract, async ({ user, body }, request) => {
      const { key, message, analyticsEventId } = await app.services.upgradeTokenRedemption.redeemToken(
        user.id,
        request.ip,
        {
          path,
          token: body.upgradeKey,
          licenseKey: body.licenseKey,
        },
      );
      return { success: true as const, error: null, message, key, analytics_event_id: analyticsEventId };
    });
  }

  registerRoute(app, contracts.checkPurchasedUpgrades, ({ user }) => upgrades.listPurchased(user.id));

  registerRoute(app, contracts.getUpgradePrices, async () => ({ prices: (await upgrades.prices()).map(toPrice) }));
  registerRoute(app, contracts.saveUpgradePrices, async ({ user, body }) => ({
    prices: (await upgrades.savePrices(user.id, body.prices, body.reason)).map(toPrice),
  }));
  registerRoute(app, contracts.mintUpgradeTokens, async ({ user, body }) => ({
    path: body.path,
    tokens: await upgrades.mintTokens(user.id, body.path, body.count, body.reason),
  }));
  registerRoute(app, contracts.staffListUpgradeTokens, ({ query }) => upgrades.listTokens(query));
  registerRoute(app, contracts.staffRevokeUpgradeToken, async ({ user, params, body }) => ({
    token: await upgrades.revokeToken(user.id, Number(params.id), body.reason),
  }));
}

function toPrice(price: UpgradePrice) {
  return {
    path: price.path,
    ...UPGRADE_PATH_TIERS[price.path],
    amount_cents: price.amountCents,
    currency: 'usd' as const,
    price_id: price.providerPriceId,
  };
}
