import { queryOptions, useQuery } from '@tanstack/react-query';
import { getKeys as getKeysContract } from '@keyport/shared/contracts/keys';
import { callApi } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

export const getKeys = () => callApi(getKeysContract);

export const keysQueryOptions = () => queryOptions({ queryKey: queryKeys.keys, queryFn: getKeys });

export const useKeys = () => useQuery(keysQueryOptions());
