import { queryOptions, useQuery } from '@tanstack/react-query';
import { me } from '@keyport/shared/contracts/auth';
import { callApi } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';
import { getSessionToken } from '../../../lib/session-token';

export const getMe = () => callApi(me);

export const meQueryOptions = () =>
  queryOptions({ queryKey: queryKeys.me, queryFn: getMe, enabled: getSessionToken() !== null, staleTime: 60_000 });

export const useMe = () => useQuery(meQueryOptions());
