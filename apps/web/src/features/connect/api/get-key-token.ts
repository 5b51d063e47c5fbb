import { queryOptions, useQuery } from '@tanstack/react-query';
import { getKeyToken } from '@keyport/shared/contracts/connect';
import { callApi } from '../../../lib/api-client';

export const keyTokenQueryOptions = (key: string) =>
  queryOptions({
    queryKey: ['key-token', key],
    queryFn: () => callApi(getKeyToken, { body: { key } }),
    staleTime: Infinity,
  });

/** The key's current theme auth token, shown again to its owner. */
export const useKeyToken = (key: string, enabled = true) => useQuery({ ...keyTokenQueryOptions(key), enabled });
