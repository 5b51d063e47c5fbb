import { queryOptions, useQuery } from '@tanstack/react-query';
import { getStripeConfig as getStripeConfigContract } from '@keyport/shared/contracts/payments';
import { callApi } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

export const getStripeConfig = () => callApi(getStripeConfigContract);

/** §4 "Payment provider readiness": GET /stripe/config, fetched when the dialog opens (never from a stale cache). */
export const stripeConfigQueryOptions = () =>
  queryOptions({ queryKey: queryKeys.stripeConfig, queryFn: getStripeConfig, staleTime: 0, gcTime: 0, retry: false });

export const useStripeConfig = () => useQuery(stripeConfigQueryOptions());
