import { queryOptions, useQuery } from '@tanstack/react-query';
import { getPublicConfig } from '@keyport/shared/contracts/public-config';
import { callApi } from './api-client';
import { queryKeys } from './query-keys';

/** The vendor's external links, from the server's configuration. */
export const publicConfigQueryOptions = () =>
  queryOptions({ queryKey: queryKeys.publicConfig, queryFn: () => callApi(getPublicConfig), staleTime: Infinity });

export const usePublicConfig = () => useQuery(publicConfigQueryOptions());
