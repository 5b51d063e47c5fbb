import { useQuery } from '@tanstack/react-query';
import { getUpgradePrices } from '@keyport/shared/contracts/upgrades';
import { staffQueryOptions } from '../../api/staff-api';

/** GET /staff/upgrade-prices: each path's price and provider price id. */
export const upgradePricesQueryOptions = () => staffQueryOptions(getUpgradePrices);
export const useUpgradePrices = () => useQuery(upgradePricesQueryOptions());
