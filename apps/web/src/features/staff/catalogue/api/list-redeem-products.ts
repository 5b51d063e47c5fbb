import { useQuery } from '@tanstack/react-query';
import { staffListRedeemProducts } from '@keyport/shared/contracts/credits';
import { staffQueryOptions } from '../../api/staff-api';

/** GET /staff/redeem-products: every product, retired ones too. */
export const redeemProductsQueryOptions = () => staffQueryOptions(staffListRedeemProducts);
export const useRedeemProducts = () => useQuery(redeemProductsQueryOptions());
