import type { RedeemProduct } from '@keyport/shared/contracts/credits';

/** The license levels credits can buy, in the order dialog 9 lists them (§5 "Credit purchase list"). */
const LICENSE_ORDER = ['REGULAR', 'PRO'] as const;

/**
 * §5: only products whose grant_type is license_level and whose grant_value is REGULAR or PRO (any case, spaces
 * around ignored), REGULAR first; products of one level keep the server's order.
 */
export function pickLicenseProducts(products: readonly RedeemProduct[]): RedeemProduct[] {
  const rank = (product: RedeemProduct) =>
    LICENSE_ORDER.indexOf(product.grant_value.trim().toUpperCase() as (typeof LICENSE_ORDER)[number]);
  return products
    .filter((product) => product.grant_type === 'license_level' && rank(product) >= 0)
    .map((product, index) => ({ product, index }))
    .sort((a, b) => rank(a.product) - rank(b.product) || a.index - b.index)
    .map(({ product }) => product);
}
