import { queryOptions, useQuery } from '@tanstack/react-query';
import { getUserStores } from '@keyport/shared/contracts/auth';
import { callApi } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

export const userStoresQueryOptions = () =>
  queryOptions({ queryKey: queryKeys.userStores, queryFn: () => callApi(getUserStores) });

export const useUserStores = () => useQuery(userStoresQueryOptions());
