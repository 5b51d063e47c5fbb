import { useMutation, useQueryClient } from '@tanstack/react-query';
import { redeemCredits as redeemCreditsContract } from '@keyport/shared/contracts/credits';
import type { CreditsBalance } from '@keyport/shared/contracts/credits';
import { callApi } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

export const redeemCredits = (redeemProductId: number) =>
  callApi(redeemCreditsContract, { body: { redeem_product_id: redeemProductId } });

/**
 * POST /credits/redeem: the server debits the cost and mints the key in one transaction. The balance it answers is
 * shown at once; the keys list is refreshed by the `licenseRedeemed` event (§4, 500 ms).
 */
export function useRedeemCredits() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: redeemCredits,
    onSuccess: (result) => {
      queryClient.setQueryData<CreditsBalance>(queryKeys.creditsBalance, (current) =>
        current ? { ...current, balance: result.balance } : current,
      );
    },
  });
}
