import { staffAddVatRate, staffListVatRates } from '@keyport/shared/contracts/vat-rates';
import { useStaffMutation } from '../../api/staff-api';

/** POST /staff/vat-rates: a country's rate from a start date (audited with the reason). */
export const useAddVatRate = () => useStaffMutation(staffAddVatRate, { invalidates: [staffListVatRates] });
