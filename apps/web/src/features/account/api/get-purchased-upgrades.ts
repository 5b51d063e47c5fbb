import { queryOptions, useQuery } from '@tanstack/react-query';
import { checkPurchasedUpgrades, type PurchasedUpgrade } from '@keyport/shared/contracts/upgrades';
import { callApi } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

export const getPurchasedUpgrades = () => callApi(checkPurchasedUpgrades);

/** GET /keys/check_purchased_upgrades: every upgrade the person paid for or redeemed (the invoices tab). */
export const purchasedUpgradesQueryOptions = () =>
  queryOptions({ queryKey: queryKeys.purchasedUpgrades, queryFn: getPurchasedUpgrades });

export const usePurchasedUpgrades = () => useQuery(purchasedUpgradesQueryOptions());

/**
 * The upgrades redeemed with an upgrade token, newest first (the paid ones are orders: Settings → Invoices lists them
 * with their invoices).
 */
export function redeemedUpgrades(result: Awaited<ReturnType<typeof getPurchasedUpgrades>>): PurchasedUpgrade[] {
  return [...result.lite_upgrade_tokens, ...result.l2p_upgrade_tokens, ...result.regular_upgrade_tokens].sort(
    (a, b) => b.created_at.localeCompare(a.created_at) || b.id - a.id,
  );
}
