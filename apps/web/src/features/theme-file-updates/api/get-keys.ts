import { queryOptions, useQuery } from '@tanstack/react-query';
import { getKeys } from '@keyport/shared/contracts/keys';
import { callApi } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/**
 * GET /keys/: the person's keys, under the same query key as the dashboard's list (a feature does not import another
 * feature; the cache is shared through the key).
 */
export const ownKeysQueryOptions = () => queryOptions({ queryKey: queryKeys.keys, queryFn: () => callApi(getKeys) });
export const useOwnKeys = () => useQuery(ownKeysQueryOptions());
