import type { BillingInput } from '@keyport/shared/contracts/payments';
import type { Key } from '@keyport/shared/contracts/keys';
import type { UpgradeOption } from '@keyport/shared/contracts/upgrades';
import { CARD_PAYMENT_MESSAGES } from '@keyport/shared/domain/card-payment';
import { createPaymentIntent } from '../api/create-payment-intent';
import type { CardConfirmer } from './card-confirmer';
import { payByCard, type PaymentOutcome } from './pay-by-card';
import { upgradeMetadata } from './upgrade-metadata';

export type { PaymentOutcome } from './pay-by-card';

export interface PayForUpgradeInput {
  option: UpgradeOption;
  licenseKey: Key;
  billing: BillingInput;
  /** Null while the card field has no complete card (or the provider did not load). */
  confirmer: CardConfirmer | null;
}

/** What the order of a confirmed payment may say after its sync, other than completed. */
export const PAYMENT_FOLLOW_UP = {
  /** The payment went through but the key had already changed: the order is flagged and refunded by support. */
  notApplied:
    'Your payment went through, but this license had already changed, so the upgrade was not applied. Support will refund you.',
  /** The sync could not finish: the provider's event completes the order on its own. */
  pending: 'Your payment went through and the upgrade is being applied. Refresh this page in a minute to see it.',
} as const;

/** §4 "Payment" for an upgrade of a key: POST /stripe/payment-intents, then the card flow of pay-by-card.ts. */
export async function payForUpgrade({
  option,
  licenseKey,
  billing,
  confirmer,
}: PayForUpgradeInput): Promise<PaymentOutcome> {
  if (!confirmer) return { status: 'error', message: CARD_PAYMENT_MESSAGES.cardUnavailable };
  const priceId = option.priceId;
  if (!priceId) return { status: 'error', message: CARD_PAYMENT_MESSAGES.noPriceId(option.to) };
  return payByCard({
    billing,
    confirmer,
    followUp: PAYMENT_FOLLOW_UP,
    createIntent: () =>
      createPaymentIntent({
        price_id: priceId,
        theme_type: option.to,
        key: licenseKey.api_key,
        billing,
        metadata: upgradeMetadata(licenseKey, option, billing),
      }),
  });
}
