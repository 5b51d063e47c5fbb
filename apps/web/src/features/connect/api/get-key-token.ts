import { queryOptions, useQuery } from '@tanstack/react-query';
import { getKeyToken } from '@keyport/shared/contracts/connect';
import { callApi } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

export const keyTokenQueryOptions = (key: string) =>
  queryOptions({
    queryKey: queryKeys.keyToken(key),
    queryFn: () => callApi(getKeyToken, { body: { key } }),
    staleTime: Infinity,
  });

/** The key's current theme auth token, shown again to its owner. */
export const useKeyToken = (key: string, enabled = true) => useQuery({ ...keyTokenQueryOptions(key), enabled });
