import { queryOptions, useQuery } from '@tanstack/react-query';
import { getCreditHistory as getCreditHistoryContract } from '@keyport/shared/contracts/credits';
import { callApi } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

export const getCreditHistory = () => callApi(getCreditHistoryContract);

/** GET /credits/history: the caller's own history (ADR 037), read each time the dialog opens. */
export const creditHistoryQueryOptions = () =>
  queryOptions({ queryKey: queryKeys.creditHistory, queryFn: getCreditHistory, staleTime: 0 });

export const useCreditHistory = () => useQuery(creditHistoryQueryOptions());
