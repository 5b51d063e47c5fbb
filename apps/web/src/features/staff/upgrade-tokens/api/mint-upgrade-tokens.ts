import { mintUpgradeTokens, staffListUpgradeTokens } from '@keyport/shared/contracts/upgrades';
import { useStaffMutation } from '../../api/staff-api';

/** POST /staff/upgrade-tokens: the batch's tokens are in this answer only (the server keeps hashes). */
export const useMintUpgradeTokens = () =>
  useStaffMutation(mintUpgradeTokens, { invalidates: [staffListUpgradeTokens] });
