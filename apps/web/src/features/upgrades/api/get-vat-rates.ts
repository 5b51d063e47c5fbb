import { queryOptions, useQuery } from '@tanstack/react-query';
import { getVatRates } from '@keyport/shared/contracts/vat-rates';
import { callApi } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

export const fetchVatRates = (signal?: AbortSignal) => callApi(getVatRates, { signal });

/**
 * GET /vat-rates: the dated VAT rate table (with the rates staff added) and the seller's country, for the browser's
 * own estimate. Until it answers (or if it fails) the estimate uses the table built into the shared code.
 */
export const vatRatesQueryOptions = () =>
  queryOptions({
    queryKey: queryKeys.vatRates,
    queryFn: ({ signal }) => fetchVatRates(signal),
    staleTime: 5 * 60_000,
    retry: false,
  });

export const useVatRates = () => useQuery(vatRatesQueryOptions());
