import {
  staffCreateRedeemProduct,
  staffListRedeemProducts,
  staffUpdateRedeemProduct,
} from '@keyport/shared/contracts/credits';
import { useStaffMutation } from '../../api/staff-api';

/** POST /staff/redeem-products. */
export const useCreateRedeemProduct = () =>
  useStaffMutation(staffCreateRedeemProduct, { invalidates: [staffListRedeemProducts] });
/** PUT /staff/redeem-products/:id (past redemptions keep what they cost). */
export const useUpdateRedeemProduct = () =>
  useStaffMutation(staffUpdateRedeemProduct, { invalidates: [staffListRedeemProducts] });
