import { useQuery } from '@tanstack/react-query';
import { getStaffCustomer, listStaffCustomers } from '@keyport/shared/contracts/staff-customers';
import { callApi } from '../../../../lib/api-client';
import { staffQueryOptions } from '../../api/staff-api';

export const getCustomer = (id: string) => callApi(getStaffCustomer, { params: { id } });

/** GET /staff/customers/:id: the customer's keys, stores, orders, invoices, upgrades, credits and reports. */
export const customerQueryOptions = (id: string) => staffQueryOptions(getStaffCustomer, { params: { id } });

export const useCustomer = (id: string) => useQuery(customerQueryOptions(id));

/** What an action on a customer changes: the customer page and the search list (both refetched after it). */
export const customerViews = [getStaffCustomer, listStaffCustomers] as const;
