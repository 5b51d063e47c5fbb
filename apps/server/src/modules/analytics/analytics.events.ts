import { ANALYTICS_EVENT_IDS, type AnalyticsEventName } from '@keyport/shared/contracts/analytics';
import type { Tier } from '@keyport/shared/domain/tiers';
import { upgradePathLabel, type UpgradePath } from '@keyport/shared/domain/upgrade-paths';
import type { BillingSnapshot } from '../../db/schema';

/** A server-recorded event before it is written to the outbox. */
export interface ServerEvent {
  userId: number;
  name: AnalyticsEventName;
  uniqueId: string;
  properties: Record<string, unknown>;
  value: number | null;
}

/** A completed order, as fulfilment has it (modules/payments owns the order; this is the part the event needs). */
export interface CompletedUpgradeOrder {
  id: number;
  userId: number;
  licenseKey: string;
  path: UpgradePath;
  fromTier: Tier;
  toTier: Tier;
  provider: string;
  providerPaymentId: string | null;
  currency: string;
  baseAmountCents: number;
  vatAmountCents: number;
  totalAmountCents: number;
  vatRateBp: number;
  reverseCharge: boolean;
  billing: BillingSnapshot;
}

export interface TokenRedemption {
  /** The spent token's id: the redemption's stable identity. */
  tokenId: number;
  userId: number;
  licenseKey: string;
  path: UpgradePath;
  fromTier: Tier;
  toTier: Tier;
}

const dollars = (cents: number) => Math.round(cents) / 100;

/** The §3 product fields of an upgrade path (one line item). */
function product(path: UpgradePath) {
  return {
    product_name: `License upgrade ${upgradePathLabel(path)}`,
    product_id: path,
    sku: `upgrade-${path.toLowerCase().replace(/_/g, '-')}`,
    quantity: 1,
    categories: ['License Upgrade'],
  };
}

/** Completed Upgrade Purchase with the §3 properties, amounts in dollars (the provider's convention). */
export function upgradePurchaseEvent(order: CompletedUpgradeOrder): ServerEvent {
  const { billing } = order;
  return {
    userId: order.userId,
    name: 'Completed Upgrade Purchase',
    uniqueId: ANALYTICS_EVENT_IDS.upgradeOrder(order.id),
    value: dollars(order.totalAmountCents),
    properties: {
      order_id: order.id,
      license_key: order.licenseKey,
      upgrade_from: order.fromTier,
      upgrade_to: order.toTier,
      price: dollars(order.baseAmountCents),
      payment_method: order.provider.startsWith('paypal') ? 'paypal' : 'card',
      payment_intent_id: order.providerPaymentId,
      is_business: billing.is_business,
      billing_country: billing.address.country,
      subtotal: dollars(order.baseAmountCents),
      tax: dollars(order.vatAmountCents),
      tax_rate: order.vatRateBp / 100,
      reverse_charge: order.reverseCharge,
      discount: 0,
      shipping: 0,
      total: dollars(order.totalAmountCents),
      currency: order.currency.toUpperCase(),
      billing_name: billing.name,
      billing_email: billing.email,
      billing_company: billing.company_name,
      billing_city: billing.address.city,
      billing_postal_code: billing.address.postal_code,
      ...product(order.path),
    },
  };
}

/** Completed Upgrade Token Redemption (no money changes hands: value 0). */
export function tokenRedemptionEvent(redemption: TokenRedemption): ServerEvent {
  return {
    userId: redemption.userId,
    name: 'Completed Upgrade Token Redemption',
    uniqueId: ANALYTICS_EVENT_IDS.tokenRedemption(redemption.tokenId),
    value: null,
    properties: {
      license_key: redemption.licenseKey,
      upgrade_from: redemption.fromTier,
      upgrade_to: redemption.toTier,
      payment_method: 'token',
      price: 0,
      total: 0,
      currency: 'USD',
      ...product(redemption.path),
    },
  };
}
