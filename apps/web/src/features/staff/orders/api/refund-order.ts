import { staffListOrders, staffRefundOrder } from '@keyport/shared/contracts/payments';
import { useStaffMutation } from '../../api/staff-api';

/** POST /staff/orders/:id/refund: asks the provider; the order turns refunded when its webhook arrives. */
export const useRefundOrder = () => useStaffMutation(staffRefundOrder, { invalidates: [staffListOrders] });
