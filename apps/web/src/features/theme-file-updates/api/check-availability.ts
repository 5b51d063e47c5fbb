import type { QueryClient } from '@tanstack/react-query';
import { getReleases } from '@keyport/shared/contracts/releases';
import { callApi } from '../../../lib/api-client';
import { themeFileUpdateRunsQueryOptions } from './theme-file-update-queries';
import { proAvailability } from '../routing/route-theme-file-update';

/**
 * The availability check (§4, PRO): the latest release of the key's edition against the version its store runs, as
 * far as Keyport knows it (the target version of the key's newest successful upgrade run; unknown without one).
 */
export async function checkUpdateAvailability(
  queryClient: QueryClient,
  licenseKey: string,
): Promise<ReturnType<typeof proAvailability> & { latest: string; storeVersion: string | null }> {
  const [{ result }, { runs }] = await Promise.all([
    callApi(getReleases, { body: { key: licenseKey } }),
    queryClient.fetchQuery(themeFileUpdateRunsQueryOptions(licenseKey)),
  ]);
  const last = runs.find((run) => run.status === 'succeeded' && run.target.key === licenseKey);
  const storeVersion = last?.target.version ?? null;
  return { ...proAvailability(result.version, storeVersion), latest: result.version, storeVersion };
}
