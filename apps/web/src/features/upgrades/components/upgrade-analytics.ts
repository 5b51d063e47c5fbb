import type { Key } from '@keyport/shared/contracts/keys';
import type { UpgradeOption } from '@keyport/shared/contracts/upgrades';
import type { BillingForm } from '@keyport/shared/domain/billing';
import type { AnalyticsProperties } from '../../../lib/analytics';

/** How the person pays: the card form, or PayPal. */
export type PaymentMethod = 'card' | 'paypal';

/**
 * §3 properties of an upgrade option: license key, upgrade from and to, product name, id and sku. No amounts: the
 * browser's events carry none (issue 19); the server's Completed Upgrade Purchase has the order's.
 */
export function upgradeOptionProperties(licenseKey: Key, option: UpgradeOption): AnalyticsProperties {
  return {
    license_key: licenseKey.api_key,
    upgrade_from: option.from,
    upgrade_to: option.to,
    currency: 'USD',
    product_name: `License upgrade ${option.from} to ${option.to}`,
    product_id: option.path,
    sku: `upgrade-${option.path.toLowerCase().replace(/_/g, '-')}`,
    quantity: 1,
    categories: ['License Upgrade'],
  };
}

/** Checkout properties: payment method, business flag, billing country and contact. */
export function checkoutProperties(
  licenseKey: Key,
  option: UpgradeOption,
  billing: BillingForm,
  method: PaymentMethod = 'card',
): AnalyticsProperties {
  return {
    ...upgradeOptionProperties(licenseKey, option),
    payment_method: method,
    is_business: billing.is_business,
    billing_country: billing.country,
    billing_name: billing.name,
    billing_email: billing.email,
    billing_company: billing.is_business ? billing.company_name : null,
  };
}
