import { queryOptions, useQuery } from '@tanstack/react-query';
import { getCreditPacks as getCreditPacksContract } from '@keyport/shared/contracts/credits';
import { callApi } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

export const getCreditPacks = () => callApi(getCreditPacksContract);

/** GET /credits/packs: the packs on sale (team members only), fetched each time the credits checkout opens. */
export const creditPacksQueryOptions = () =>
  queryOptions({ queryKey: queryKeys.creditPacks, queryFn: getCreditPacks, staleTime: 0 });

export const useCreditPacks = () => useQuery(creditPacksQueryOptions());
