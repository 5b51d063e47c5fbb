import { queryOptions, useQuery } from '@tanstack/react-query';
import { getRedeemProducts as getRedeemProductsContract } from '@keyport/shared/contracts/credits';
import { callApi } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

export const getRedeemProducts = () => callApi(getRedeemProductsContract);

/** GET /credits/redeem-products: fetched each time dialog 9 opens (staff change the catalogue). */
export const redeemProductsQueryOptions = () =>
  queryOptions({ queryKey: queryKeys.redeemProducts, queryFn: getRedeemProducts, staleTime: 0 });

export const useRedeemProducts = () => useQuery(redeemProductsQueryOptions());
