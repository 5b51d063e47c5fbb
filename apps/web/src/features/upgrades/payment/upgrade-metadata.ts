import type { Key } from '@keyport/shared/contracts/keys';
import type { BillingInput } from '@keyport/shared/contracts/payments';
import type { UpgradeOption } from '@keyport/shared/contracts/upgrades';

/**
 * §7 the `metadata` both payment starts send (card and PayPal): for the provider's dashboard only; the server never
 * takes an amount or a tier from it.
 */
export function upgradeMetadata(licenseKey: Key, option: UpgradeOption, billing: BillingInput) {
  return {
    license_key: licenseKey.api_key,
    upgrade_from: option.from,
    upgrade_to: option.to,
    is_business: billing.is_business,
    company_name: billing.company_name ?? null,
    vat_id: billing.vat_id ?? null,
    customer_country: billing.address.country,
  };
}
