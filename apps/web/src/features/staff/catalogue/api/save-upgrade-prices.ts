import { getUpgradePrices, saveUpgradePrices } from '@keyport/shared/contracts/upgrades';
import { useStaffMutation } from '../../api/staff-api';

/** PUT /staff/upgrade-prices: the paths sent change, the others keep theirs. */
export const useSaveUpgradePrices = () => useStaffMutation(saveUpgradePrices, { invalidates: [getUpgradePrices] });
