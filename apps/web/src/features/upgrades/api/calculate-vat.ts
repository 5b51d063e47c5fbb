import { queryOptions, useQuery } from '@tanstack/react-query';
import { calculateVat as calculateVatContract } from '@keyport/shared/contracts/billing';
import type { BodyOf } from '@keyport/shared/contracts/define';
import { callApi } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

export type VatQuoteInput = BodyOf<typeof calculateVatContract>;

export const calculateVatOnServer = (body: VatQuoteInput, signal?: AbortSignal) =>
  callApi(calculateVatContract, { body, signal });

/** POST /stripe/vat/calculate: the server's VAT for the order summary (it overrides the browser's own figure). */
export const vatQuoteQueryOptions = (body: VatQuoteInput) =>
  queryOptions({
    queryKey: queryKeys.vatQuote(body),
    queryFn: ({ signal }) => calculateVatOnServer(body, signal),
    staleTime: 5 * 60_000,
    retry: false,
  });

export const useVatQuote = (body: VatQuoteInput | null) =>
  useQuery({
    ...vatQuoteQueryOptions(body ?? { amount: 0, country_code: 'US', is_business: false }),
    enabled: body !== null,
  });
