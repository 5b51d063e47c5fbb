import { mintCustomerKeys } from '@keyport/shared/contracts/staff-customers';
import { useStaffMutation } from '../../api/staff-api';
import { customerViews } from './get-customer';

/** POST /staff/customers/:id/keys: keys owned by the customer from the start, each emailed to them. */
export const useMintCustomerKeys = () => useStaffMutation(mintCustomerKeys, { invalidates: customerViews });
