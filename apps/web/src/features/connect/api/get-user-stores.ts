import { queryOptions, useQuery } from '@tanstack/react-query';
import { getUserStores } from '@keyport/shared/contracts/auth';
import { callApi } from '../../../lib/api-client';

export const userStoresQueryOptions = () =>
  queryOptions({ queryKey: ['user-stores'], queryFn: () => callApi(getUserStores) });

export const useUserStores = () => useQuery(userStoresQueryOptions());
