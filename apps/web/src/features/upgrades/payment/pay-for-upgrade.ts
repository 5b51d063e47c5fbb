import type { BillingInput, OrderQuote } from '@keyport/shared/contracts/payments';
import type { Key } from '@keyport/shared/contracts/keys';
import type { UpgradeOption } from '@keyport/shared/contracts/upgrades';
import { CARD_PAYMENT_MESSAGES, paymentIntentFailureMessage } from '@keyport/shared/domain/card-payment';
import { ApiError, serverMessage as serverMessageOf, isNetworkError } from '../../../lib/api-client';
import { createPaymentIntent } from '../api/create-payment-intent';
import { syncPaymentIntent } from '../api/sync-payment-intent';
import type { CardConfirmer } from './card-confirmer';
import { upgradeMetadata } from './upgrade-metadata';

export type PaymentOutcome =
  { status: 'succeeded'; order: OrderQuote; key: Key | null } | { status: 'error'; message: string };

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

/**
 * §4 "Payment": idle → processing → succeeded or error. Creates the order and its payment intent (the server
 * computes every amount), confirms it with the card, then asks the server to sync it, which fulfils the upgrade at
 * once (the webhook would do the same, later). Every failure becomes one of §8's card-payment texts.
 */
export async function payForUpgrade({
  option,
  licenseKey,
  billing,
  confirmer,
}: PayForUpgradeInput): Promise<PaymentOutcome> {
  if (!confirmer) return { status: 'error', message: CARD_PAYMENT_MESSAGES.cardUnavailable };
  if (!option.priceId) return { status: 'error', message: CARD_PAYMENT_MESSAGES.noPriceId(option.to) };
  try {
    let created;
    try {
      created = await createPaymentIntent({
        price_id: option.priceId,
        theme_type: option.to,
        key: licenseKey.api_key,
        billing,
        metadata: upgradeMetadata(licenseKey, option, billing),
      });
    } catch (error) {
      return { status: 'error', message: createFailedMessage(error) };
    }

    const intent = created.payment_intent;
    if (!intent.client_secret) return { status: 'error', message: CARD_PAYMENT_MESSAGES.missingClientSecret };

    const confirmation = await confirmer.confirm(intent, billing);
    if (!confirmation.ok) return { status: 'error', message: confirmation.message };

    let synced;
    try {
      synced = await syncPaymentIntent(intent.id);
    } catch {
      return { status: 'error', message: PAYMENT_FOLLOW_UP.pending };
    }
    if (synced.order.status === 'completed') return { status: 'succeeded', order: synced.order, key: synced.key };
    if (synced.order.status === 'needs_refund' || synced.order.status === 'review') {
      return { status: 'error', message: PAYMENT_FOLLOW_UP.notApplied };
    }
    return { status: 'error', message: PAYMENT_FOLLOW_UP.pending };
  } catch {
    return { status: 'error', message: CARD_PAYMENT_MESSAGES.unexpected };
  }
}

/** §8: 'Failed to create payment intent: {status text}' or the server's own message. */
function createFailedMessage(error: unknown): string {
  if (!(error instanceof ApiError)) return CARD_PAYMENT_MESSAGES.unexpected;
  // A network failure has no status: its message says so.
  const serverMessage = serverMessageOf(error) !== null || isNetworkError(error) ? error.message : null;
  return paymentIntentFailureMessage({ serverMessage, statusText: error.statusText, status: error.status });
}
