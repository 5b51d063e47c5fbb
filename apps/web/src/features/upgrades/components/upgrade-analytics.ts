import type { Key } from '@keyport/shared/contracts/keys';
import type { OrderQuote } from '@keyport/shared/contracts/payments';
import type { UpgradeOption } from '@keyport/shared/contracts/upgrades';
import type { BillingForm } from '@keyport/shared/domain/billing';
import type { AnalyticsProperties } from '../../../lib/analytics';
import type { OrderAmounts } from './use-order-amounts';

/** How the person pays: the card form, or PayPal. */
export type PaymentMethod = 'card' | 'paypal';

const dollars = (cents: number) => Math.round(cents) / 100;

/** §3 properties of an upgrade option: license key, upgrade from and to, price, product name, id and sku. */
export function upgradeOptionProperties(licenseKey: Key, option: UpgradeOption): AnalyticsProperties {
  return {
    license_key: licenseKey.api_key,
    upgrade_from: option.from,
    upgrade_to: option.to,
    price: dollars(option.price_cents),
    currency: 'USD',
    product_name: `License upgrade ${option.from} to ${option.to}`,
    product_id: option.path,
    sku: `upgrade-${option.path.toLowerCase().replace(/_/g, '-')}`,
    quantity: 1,
    categories: ['License Upgrade'],
  };
}

/** Checkout properties: payment method, business flag, billing country and contact, the order summary's amounts. */
export function checkoutProperties(
  licenseKey: Key,
  option: UpgradeOption,
  billing: BillingForm,
  amounts: OrderAmounts | null,
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
    ...(amounts
      ? {
          subtotal: dollars(amounts.baseCents),
          tax: dollars(amounts.vatCents),
          tax_rate: amounts.rateBp / 100,
          total: dollars(amounts.totalCents),
        }
      : {}),
    discount: 0,
    shipping: 0,
  };
}

/** The completed order's own amounts (the server's, not the summary's). */
export function purchaseProperties(base: AnalyticsProperties, order: OrderQuote): AnalyticsProperties {
  return {
    ...base,
    order_id: order.id,
    subtotal: dollars(order.base_amount),
    tax: dollars(order.vat_amount),
    tax_rate: order.vat_rate,
    total: dollars(order.total_amount),
  };
}
