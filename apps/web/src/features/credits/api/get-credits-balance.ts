import { queryOptions, useQuery } from '@tanstack/react-query';
import { getCreditsBalance as getCreditsBalanceContract } from '@keyport/shared/contracts/credits';
import { callApi } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

export const getCreditsBalance = () => callApi(getCreditsBalanceContract);

/** GET /credits/balance: shown in the user menu and in both credits dialogs; refreshed by the credit events (§4). */
export const creditsBalanceQueryOptions = () =>
  queryOptions({ queryKey: queryKeys.creditsBalance, queryFn: getCreditsBalance, staleTime: 30_000 });

export const useCreditsBalance = () => useQuery(creditsBalanceQueryOptions());
