import { queryOptions, useQuery } from '@tanstack/react-query';
import { getCreditsBalance as getCreditsBalanceContract } from '@keyport/shared/contracts/credits';
import { callApi } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

export const getCreditsBalance = () => callApi(getCreditsBalanceContract);

/** GET /credits/balance: the credits checkout shows it before and after a purchase. */
export const creditsBalanceQueryOptions = () =>
  queryOptions({ queryKey: queryKeys.creditsBalance, queryFn: getCreditsBalance });

export const useCreditsBalance = () => useQuery(creditsBalanceQueryOptions());
