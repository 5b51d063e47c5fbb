import { queryOptions, useQuery } from '@tanstack/react-query';
import { listKeysUpgrade, listThemeUpgrades, previewThemeUpgrade } from '@keyport/shared/contracts/theme-upgrades';
import { callApi } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** GET /keys/list_keys_upgrade: which upgrade-file options are open (§5). Read each time the dialog opens. */
export const upgradableKeysQueryOptions = () =>
  queryOptions({ queryKey: queryKeys.upgradableKeys, queryFn: () => callApi(listKeysUpgrade), staleTime: 0 });
export const useUpgradableKeys = () => useQuery(upgradableKeysQueryOptions());

/** GET /theme-upgrades/preview: source and target license, edition and version, before the upload. */
export const useThemeUpgradePreview = (sourceKey: string | null, targetKey: string | null) =>
  useQuery({
    queryKey: queryKeys.themeUpgradePreview(sourceKey ?? '', targetKey ?? ''),
    queryFn: () => callApi(previewThemeUpgrade, { query: { source_key: sourceKey!, target_key: targetKey! } }),
    enabled: Boolean(sourceKey && targetKey),
    retry: false,
  });

/** GET /theme-upgrades?key=…: a key's runs, newest first. */
export const themeUpgradeRunsQueryOptions = (licenseKey: string) =>
  queryOptions({
    queryKey: queryKeys.themeUpgradeRuns(licenseKey),
    queryFn: () => callApi(listThemeUpgrades, { query: { key: licenseKey } }),
  });
