import { queryOptions, useQuery } from '@tanstack/react-query';
import { listInvoices } from '@keyport/shared/contracts/invoices';
import { callApi } from '../../../lib/api-client';

export const getInvoices = async () => (await callApi(listInvoices)).invoices;

/** GET /invoices: the person's invoices and credit notes, newest first (the invoices tab; fresh on every open). */
export const invoicesQueryOptions = () =>
  queryOptions({ queryKey: ['invoices'] as const, queryFn: getInvoices, staleTime: 0 });

export const useInvoices = () => useQuery(invoicesQueryOptions());
