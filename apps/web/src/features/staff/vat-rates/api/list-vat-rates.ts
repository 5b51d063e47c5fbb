import { useQuery } from '@tanstack/react-query';
import { staffListVatRates } from '@keyport/shared/contracts/vat-rates';
import { staffQueryOptions } from '../../api/staff-api';

/** GET /staff/vat-rates: every rate row (built in and added by staff) and which is in force today. */
export const vatRatesQueryOptions = () => staffQueryOptions(staffListVatRates);
export const useStaffVatRates = () => useQuery(vatRatesQueryOptions());
