import { useQuery } from '@tanstack/react-query';
import { staffListOrders } from '@keyport/shared/contracts/payments';
import type { QueryOf } from '@keyport/shared/contracts/define';
import { staffQueryOptions } from '../../api/staff-api';

export type OrdersQuery = QueryOf<typeof staffListOrders>;

/** GET /staff/orders: one page of card and PayPal orders, newest first. */
export const ordersQueryOptions = (query: OrdersQuery) => staffQueryOptions(staffListOrders, { query });
export const useOrders = (query: OrdersQuery) => useQuery(ordersQueryOptions(query));
