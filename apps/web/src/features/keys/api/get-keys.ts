import { queryOptions, useQuery } from '@tanstack/react-query';
import { getKeys as getKeysContract } from '@keyport/shared/contracts/keys';
import { callApi } from '../../../lib/api-client';

export const getKeys = () => callApi(getKeysContract);

export const keysQueryOptions = () => queryOptions({ queryKey: ['keys'], queryFn: getKeys });

export const useKeys = () => useQuery(keysQueryOptions());
