import { queryOptions, useQuery } from '@tanstack/react-query';
import { getKeysHealth as getKeysHealthContract } from '@keyport/shared/contracts/licenses';
import { callApi } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

export const getKeysHealth = () => callApi(getKeysHealthContract);

/** One call for every card; check-ins arrive in batches, so a minute-old answer is as good as a fresh one. */
export const keysHealthQueryOptions = () =>
  queryOptions({ queryKey: queryKeys.keysHealth, queryFn: getKeysHealth, staleTime: 60_000 });

export const useKeysHealth = () => useQuery(keysHealthQueryOptions());
