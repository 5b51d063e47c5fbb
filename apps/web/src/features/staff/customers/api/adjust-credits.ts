import { staffAdjustCredits } from '@keyport/shared/contracts/credits';
import { useStaffMutation } from '../../api/staff-api';
import { customerViews } from './get-customer';

/** POST /staff/credits: grant (amount > 0) or remove (amount < 0) a customer's credits. */
export const useAdjustCredits = () => useStaffMutation(staffAdjustCredits, { invalidates: customerViews });
