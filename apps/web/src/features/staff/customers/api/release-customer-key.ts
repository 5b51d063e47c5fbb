import { releaseCustomerKey } from '@keyport/shared/contracts/staff-customers';
import { useStaffMutation } from '../../api/staff-api';
import { customerViews } from './get-customer';

/** POST /staff/customers/:id/keys/:keyId/release: the key leaves the account (store and token cleared). */
export const useReleaseCustomerKey = () => useStaffMutation(releaseCustomerKey, { invalidates: customerViews });
