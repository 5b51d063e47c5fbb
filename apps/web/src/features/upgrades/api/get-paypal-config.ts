import { queryOptions, useQuery } from '@tanstack/react-query';
import { getPaypalConfig as getPaypalConfigContract } from '@keyport/shared/contracts/paypal';
import { callApi } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

export const getPaypalConfig = () => callApi(getPaypalConfigContract);

/** GET /stripe/paypal/config: real PayPal Buttons (with a client id) or the offline sandbox's approval page. */
export const paypalConfigQueryOptions = () =>
  queryOptions({ queryKey: queryKeys.paypalConfig, queryFn: getPaypalConfig, staleTime: 0, gcTime: 0, retry: false });

export const usePaypalConfig = () => useQuery(paypalConfigQueryOptions());
