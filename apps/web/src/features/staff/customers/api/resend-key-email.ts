import { resendCustomerKeyEmail } from '@keyport/shared/contracts/staff-customers';
import { useStaffMutation } from '../../api/staff-api';

/** POST /staff/customers/:id/keys/:keyId/resend-email: nothing on the page changes. */
export const useResendKeyEmail = () => useStaffMutation(resendCustomerKeyEmail);
