import type { FastifyInstance } from 'fastify';
import * as contracts from '@keyport/shared/contracts/upgrades';
import { UPGRADE_PATH_TIERS, type UpgradePath } from '@keyport/shared/domain/upgrade-paths';
import { registerRoute } from '../../http/route';
import type { UpgradePrice } from './upgrades.service';

/** §7 upgrade options, token redemption, purchased upgrades; staff prices and tokens. */
export async function upgradesRoutes(app: FastifyInstance) {
  const upgrades = app.services.upgrades;

  registerRoute(app, contracts.getUpgradeOptions, async ({ user, body }) => {
    const { key, options } = await upgrades.optionsFor(user.id, body.key);
    return { key, options };
  });

  const redeem = (path: UpgradePath) =>
    (async ({ user, body }, request) => {
      const { key, message } = await upgrades.redeemToken(user.id, request.ip, {
        path,
        token: body.upgradeKey,
        licenseKey: body.licenseKey,
      });
      return { success: true as const, error: null, message, key };
    }) satisfies Parameters<typeof registerRoute<typeof contracts.redeemTokenToRegular>>[2];
  registerRoute(app, contracts.redeemTokenToRegular, redeem('LITE_TO_REGULAR'));
  registerRoute(app, contracts.redeemTokenToPro, redeem('REGULAR_TO_PRO'));
  registerRoute(app, contracts.redeemTokenLiteToPro, redeem('LITE_TO_PRO'));

  registerRoute(app, contracts.checkPurchasedUpgrades, ({ user }) => upgrades.listPurchased(user.id));

  registerRoute(app, contracts.getUpgradePrices, async () => ({ prices: (await upgrades.prices()).map(toPrice) }));
  registerRoute(app, contracts.saveUpgradePrices, async ({ user, body }) => ({
    prices: (await upgrades.savePrices(user.id, body.prices)).map(toPrice),
  }));
  registerRoute(app, contracts.mintUpgradeTokens, async ({ user, body }) => ({
    path: body.path,
    tokens: await upgrades.mintTokens(user.id, body.path, body.count),
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

