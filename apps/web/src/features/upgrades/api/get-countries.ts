import { queryOptions, useQuery } from '@tanstack/react-query';
import { getCountries as getCountriesContract } from '@keyport/shared/contracts/billing';
import { callApi } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

export const getCountries = () => callApi(getCountriesContract);

/** §5 "Country list": GET /countries (the portal's own list), kept for the session. */
export const countriesQueryOptions = () =>
  queryOptions({ queryKey: queryKeys.countries, queryFn: getCountries, staleTime: Infinity, retry: false });

export const useCountries = () => useQuery(countriesQueryOptions());
