import { staffListUpgradeTokens, staffRevokeUpgradeToken } from '@keyport/shared/contracts/upgrades';
import { useStaffMutation } from '../../api/staff-api';

/** POST /staff/upgrade-tokens/:id/revoke: an unused token stops working at once. */
export const useRevokeUpgradeToken = () =>
  useStaffMutation(staffRevokeUpgradeToken, { invalidates: [staffListUpgradeTokens] });
