import type { BillingInput, OrderQuote } from '@keyport/shared/contracts/payments';
import type { Key } from '@keyport/shared/contracts/keys';
import { CARD_PAYMENT_MESSAGES, paymentIntentFailureMessage } from '@keyport/shared/domain/card-payment';
import { ApiError, serverMessage as serverMessageOf, isNetworkError } from '../../../lib/api-client';
import { syncPaymentIntent } from '../api/sync-payment-intent';
import type { CardConfirmer } from './card-confirmer';

export type PaymentOutcome =
  { status: 'succeeded'; order: OrderQuote; key: Key | null } | { status: 'error'; message: string };

/** What the order of a confirmed payment may say after its sync, other than completed (the purchase's own words). */
export interface PaymentFollowUp {
  /** The payment went through but could not be applied: the order is flagged and refunded by support. */
  notApplied: string;
  /** The sync could not finish: the provider's event completes the order on its own. */
  pending: string;
}

export interface PayByCardInput {
  billing: BillingInput;
  /** Null while the card field has no complete card (or the provider did not load). */
  confirmer: CardConfirmer | null;
  /** Creates the pending order and its payment intent (an upgrade's or a credit pack's route). */
  createIntent: () => Promise<{ payment_intent: { id: string; client_secret: string } }>;
  followUp: PaymentFollowUp;
}

/**
 * §4 "Payment" for any purchase: idle → processing → succeeded or error. Creates the order and its payment intent
 * (the server computes every amount), confirms it with the card, then asks the server to sync it, which fulfils the
 * order at once (the webhook would do the same, later). Every failure becomes one of §8's card-payment texts.
 */
export async function payByCard({
  billing,
  confirmer,
  createIntent,
  followUp,
}: PayByCardInput): Promise<PaymentOutcome> {
  if (!confirmer) return { status: 'error', message: CARD_PAYMENT_MESSAGES.cardUnavailable };
  try {
    let created;
    try {
      created = await createIntent();
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
    } catch (error) {
      // Refused before any money moved (replaced, cancelled, expired, no longer applicable; a capture the provider
      // declined): the server says why. Anything else: the provider's event completes the order on its own.
      if (error instanceof ApiError && (error.status === 409 || error.status === 402) && serverMessageOf(error)) {
        return { status: 'error', message: error.message };
      }
      return { status: 'error', message: followUp.pending };
    }
    if (synced.order.status === 'completed') return { status: 'succeeded', order: synced.order, key: synced.key };
    if (synced.order.status === 'needs_refund' || synced.order.status === 'review') {
      return { status: 'error', message: followUp.notApplied };
    }
    return { status: 'error', message: followUp.pending };
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
