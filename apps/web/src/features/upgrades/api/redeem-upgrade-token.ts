import { useMutation, useQueryClient } from '@tanstack/react-query';
import { redeemTokenLiteToPro, redeemTokenToPro, redeemTokenToRegular } from '@keyport/shared/contracts/upgrades';
import type { Key } from '@keyport/shared/contracts/keys';
import type { UpgradePath } from '@keyport/shared/domain/upgrade-paths';
import { callApi } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** §7: the token-redemption route of each path. */
const REDEEM_CONTRACTS = {
  LITE_TO_REGULAR: redeemTokenToRegular,
  REGULAR_TO_PRO: redeemTokenToPro,
  LITE_TO_PRO: redeemTokenLiteToPro,
} as const satisfies Record<UpgradePath, unknown>;

export interface RedeemTokenInput {
  path: UpgradePath;
  upgradeKey: string;
  licenseKey: string;
}

export const redeemUpgradeToken = ({ path, upgradeKey, licenseKey }: RedeemTokenInput) =>
  callApi(REDEEM_CONTRACTS[path], { body: { upgradeKey, licenseKey } });

/** POST /keys/upgrade/regular | pro | l2p; the keys and the purchased upgrades are fetched again. */
export function useRedeemUpgradeToken() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: redeemUpgradeToken,
    onSuccess: (result) => {
      // The card shows its new tier at once; the lists are fetched again behind it.
      queryClient.setQueryData<Key[]>(queryKeys.keys, (keys) =>
        keys?.map((key) => (key.id === result.key.id ? result.key : key)),
      );
      void queryClient.invalidateQueries({ queryKey: queryKeys.keys });
      void queryClient.invalidateQueries({ queryKey: queryKeys.purchasedUpgrades });
      void queryClient.invalidateQueries({ queryKey: queryKeys.upgradeOptionsAll });
    },
  });
}
