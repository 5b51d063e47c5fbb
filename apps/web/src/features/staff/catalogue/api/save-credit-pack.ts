import { staffCreateCreditPack, staffListCreditPacks, staffUpdateCreditPack } from '@keyport/shared/contracts/credits';
import { useStaffMutation } from '../../api/staff-api';

/** POST /staff/credit-packs. */
export const useCreateCreditPack = () =>
  useStaffMutation(staffCreateCreditPack, { invalidates: [staffListCreditPacks] });
/** PUT /staff/credit-packs/:id (orders keep the price they were quoted). */
export const useUpdateCreditPack = () =>
  useStaffMutation(staffUpdateCreditPack, { invalidates: [staffListCreditPacks] });
