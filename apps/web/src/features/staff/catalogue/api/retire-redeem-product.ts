import { staffDeleteRedeemProduct, staffListRedeemProducts } from '@keyport/shared/contracts/credits';
import { useStaffMutation } from '../../api/staff-api';

/** DELETE /staff/redeem-products/:id: retired, no longer offered (redemptions keep referring to it). */
export const useRetireRedeemProduct = () =>
  useStaffMutation(staffDeleteRedeemProduct, { invalidates: [staffListRedeemProducts] });
