import { queryOptions, useQuery } from '@tanstack/react-query';
import { getHomepageSettings, HomepageDataSchema, type HomepageData } from '@keyport/shared/contracts/homepage';
import { callApi } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';
import { STORAGE_KEYS } from '../../../lib/storage-keys';

export interface HomepageFeed {
  data: HomepageData;
  /** True when the server could not be reached and the copy saved in this browser is shown. */
  fromCache: boolean;
}

function readCache(): HomepageData | null {
  try {
    const raw = localStorage.getItem(STORAGE_KEYS.homepageData);
    if (!raw) return null;
    const parsed = HomepageDataSchema.safeParse(JSON.parse(raw));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/** §7: fetched with no-cache headers, cached in local storage, and the cache is the fallback on failure. */
export async function getHomepageFeed(): Promise<HomepageFeed> {
  try {
    const data = await callApi(getHomepageSettings, {
      query: { preview: 'false' },
      headers: { 'cache-control': 'no-cache', pragma: 'no-cache' },
    });
    try {
      localStorage.setItem(STORAGE_KEYS.homepageData, JSON.stringify(data));
    } catch {
      // Storage full or disabled: the feed still shows, it just is not kept for later.
    }
    return { data, fromCache: false };
  } catch (error) {
    const cached = readCache();
    if (cached) return { data: cached, fromCache: true };
    throw error;
  }
}

export const homepageFeedQueryOptions = () =>
  queryOptions({ queryKey: queryKeys.homepageFeed, queryFn: getHomepageFeed, retry: false, staleTime: 5 * 60_000 });

export const useHomepageFeed = () => useQuery(homepageFeedQueryOptions());
