import { queryOptions, useQuery } from '@tanstack/react-query';
import {
  cancelThemeFileUpdate,
  getThemeFileUpdate,
  listKeysUpgrade,
  listThemeFileUpdates,
  previewThemeFileUpdate,
} from '@keyport/shared/contracts/theme-file-updates';
import { callApi } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** GET /keys/list_keys_upgrade: which upgrade-file options are open (§5). Read each time the dialog opens. */
export const upgradableKeysQueryOptions = () =>
  queryOptions({ queryKey: queryKeys.upgradableKeys, queryFn: () => callApi(listKeysUpgrade), staleTime: 0 });
export const useUpgradableKeys = () => useQuery(upgradableKeysQueryOptions());

/** GET /theme-file-updates/preview: source and target license, edition and version, before the upload. */
export const useThemeFileUpdatePreview = (sourceKey: string | null, targetKey: string | null) =>
  useQuery({
    queryKey: queryKeys.themeFileUpdatePreview(sourceKey ?? '', targetKey ?? ''),
    queryFn: () => callApi(previewThemeFileUpdate, { query: { source_key: sourceKey!, target_key: targetKey! } }),
    enabled: Boolean(sourceKey && targetKey),
    retry: false,
  });

/** GET /theme-file-updates?key=…: a key's runs, newest first. */
export const themeFileUpdateRunsQueryOptions = (licenseKey: string) =>
  queryOptions({
    queryKey: queryKeys.themeFileUpdateRuns(licenseKey),
    queryFn: () => callApi(listThemeFileUpdates, { query: { key: licenseKey } }),
    // A run in progress is a job on the server: the list follows it until it ends.
    refetchInterval: (query) =>
      query.state.data?.runs.some((run) => run.status === 'running') ? RUN_LIST_POLL_MS : false,
  });
/** How often a key's runs are read again while one is in progress. */
const RUN_LIST_POLL_MS = 3_000;

/** How often the page asks how far a run in progress got. */
export const RUN_POLL_MS = 1_000;

/** GET /theme-file-updates/:id, polled while the run is in progress (the work is a job on the server, ADR 041). */
export const useThemeFileUpdateRun = (id: string | null) =>
  useQuery({
    queryKey: queryKeys.themeFileUpdateRun(id ?? ''),
    queryFn: () => callApi(getThemeFileUpdate, { params: { id: id! } }),
    enabled: id !== null && /^\d{1,10}$/.test(id),
    retry: false,
    refetchInterval: (query) => (query.state.data?.run.status === 'running' ? RUN_POLL_MS : false),
  });

/** POST /theme-file-updates/:id/cancel. */
export const cancelRun = (id: number) => callApi(cancelThemeFileUpdate, { params: { id: String(id) } });
