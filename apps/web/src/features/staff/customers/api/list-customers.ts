import { useQuery } from '@tanstack/react-query';
import { listStaffCustomers } from '@keyport/shared/contracts/staff-customers';
import { callApi } from '../../../../lib/api-client';
import { staffQueryOptions } from '../../api/staff-api';

export interface CustomersQuery {
  q?: string;
  cursor?: string;
}

export const listCustomers = (query: CustomersQuery) => callApi(listStaffCustomers, { query });

/** GET /staff/customers: a page of customers matching the search (email, license key or domain). */
export const customersQueryOptions = (query: CustomersQuery) => staffQueryOptions(listStaffCustomers, { query });

export const useCustomers = (query: CustomersQuery) => useQuery(customersQueryOptions(query));
