import { queryOptions, useQuery } from '@tanstack/react-query';
import { listMyOrders } from '@keyport/shared/contracts/invoices';
import { callApi } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

export const getMyOrders = async () => (await callApi(listMyOrders)).orders;

/**
 * GET /orders: the person's orders, newest first, each with its invoice and credit notes (Settings → Invoices; fresh
 * on every open).
 */
export const myOrdersQueryOptions = () =>
  queryOptions({ queryKey: queryKeys.myOrders, queryFn: getMyOrders, staleTime: 0 });

export const useMyOrders = () => useQuery(myOrdersQueryOptions());
