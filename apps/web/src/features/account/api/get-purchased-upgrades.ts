import { queryOptions, useQuery } from '@tanstack/react-query';
import { getOrderReceipt } from '@keyport/shared/contracts/payments';
import { checkPurchasedUpgrades, type PurchasedUpgrade } from '@keyport/shared/contracts/upgrades';
import { callApi, callApiForResponse } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';
import { saveFileResponse } from '../../../lib/save-file-response';

export const getPurchasedUpgrades = () => callApi(checkPurchasedUpgrades);

/** GET /keys/check_purchased_upgrades: every upgrade the person paid for or redeemed (the invoices tab). */
export const purchasedUpgradesQueryOptions = () =>
  queryOptions({ queryKey: queryKeys.purchasedUpgrades, queryFn: getPurchasedUpgrades });

export const usePurchasedUpgrades = () => useQuery(purchasedUpgradesQueryOptions());

/** Every source in one list, newest first (a paid upgrade and a token are both "a purchased upgrade"). */
export function allPurchasedUpgrades(result: Awaited<ReturnType<typeof getPurchasedUpgrades>>): PurchasedUpgrade[] {
  return [
    ...result.stripe_upgrades,
    ...result.lite_upgrade_tokens,
    ...result.l2p_upgrade_tokens,
    ...result.regular_upgrade_tokens,
  ].sort((a, b) => b.created_at.localeCompare(a.created_at) || b.id - a.id);
}

const receiptPath = new RegExp(`^${getOrderReceipt.path.replace(':id', '(\\d{1,10})')}$`);

/**
 * Downloads a paid upgrade's PDF receipt (GET /upgrades/orders/:id/receipt). The route needs the session's
 * Authorization header, so it is fetched rather than linked, then saved under the server's file name.
 */
export async function downloadReceipt(receiptUrl: string): Promise<void> {
  const id = receiptPath.exec(receiptUrl)?.[1];
  if (!id) throw new Error('This receipt link is not one of the portal’s.');
  const response = await callApiForResponse(getOrderReceipt, {
    params: { id },
    headers: { accept: 'application/pdf' },
  });
  await saveFileResponse(response, `receipt-${id}.pdf`);
}
