import { queryOptions, useQuery } from '@tanstack/react-query';
import { getUpgradeOptions as getUpgradeOptionsContract } from '@keyport/shared/contracts/upgrades';
import { callApi } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

export const getUpgradeOptions = (licenseKey: string) =>
  callApi(getUpgradeOptionsContract, { body: { key: licenseKey } });

/** POST /upgrades/options: the upgrades a key can take, with the catalogue's prices. Fetched each time the dialog opens. */
export const upgradeOptionsQueryOptions = (licenseKey: string) =>
  queryOptions({
    queryKey: queryKeys.upgradeOptions(licenseKey),
    queryFn: () => getUpgradeOptions(licenseKey),
    staleTime: 0,
  });

export const useUpgradeOptions = (licenseKey: string) => useQuery(upgradeOptionsQueryOptions(licenseKey));
