/**
 * The card-payment provider, as Keyport sees it (house style: a narrow port, Keyport's own types). Adapters:
 * `stripe` (the Stripe SDK: PaymentIntents in USD cents) and `sandbox` (the offline default: an in-portal stand-in for
 * Stripe whose payments are confirmed through `POST /sandbox/stripe/confirm` and whose events reach the same webhook
 * route, signed the same way). An adapter never touches Keyport's tables of orders or keys; the sandbox keeps its own
 * stand-in payments (`sandbox_payments`), the way Stripe keeps its own.
 */

/** Where a payment stands at the provider. */
export type ProviderPaymentStatus =
  /** Created; waiting for the card (or for a retry after a decline). */
  | 'requires_payment'
  /**
   * The card was authorized (confirmed) and nothing is charged until Keyport captures it (ADR 035: payments are
   * created with manual capture, so the server checks the upgrade still applies before any money moves).
   */
  | 'requires_capture'
  /** Confirmed, the provider is still working on it. */
  | 'processing'
  | 'succeeded'
  | 'canceled';

/** A payment as the provider reports it: the source of truth fulfilment re-reads. */
export interface ProviderPayment {
  /** The provider's id (a PaymentIntent id: `pi_…`). */
  ref: string;
  status: ProviderPaymentStatus;
  /** In the smallest unit of `currency` (cents). */
  amountCents: number;
  /** Lower-case ISO 4217, e.g. 'usd'. */
  currency: string;
  /** What Keyport put on the payment when creating it (order id, key, path). */
  metadata: Record<string, string>;
  /** Cents refunded so far (0 when none). */
  refundedCents: number;
  /** The secret the browser confirms the payment with. */
  clientSecret: string;
  /** The message of the last failed attempt (a decline), if any. */
  lastError: string | null;
}

export interface CreatePaymentInput {
  amountCents: number;
  currency: 'usd';
  /** Shown on the card statement / in the provider's dashboard. */
  description: string;
  metadata: Record<string, string>;
  receiptEmail: string | null;
  /** The same key returns the same payment (a retried request never creates a second one). */
  idempotencyKey: string;
}

/** A full refund of what remains of a payment (issue 12: staff refund an order through the provider). */
export interface RefundPaymentInput {
  /** The same key returns the same refund (a retried request never refunds twice). */
  idempotencyKey: string;
}

/** A capture of an authorized payment (issue 19): the key makes a retried capture return the same answer. */
export interface CapturePaymentInput {
  idempotencyKey: string;
}

/** A verified webhook event, reduced to what fulfilment needs. */
export interface ProviderEvent {
  /** The provider's event id (`evt_…`): the dedupe key. */
  id: string;
  /**
   * `payment_succeeded` / `payment_failed` / `payment_authorized` (the card holds the amount, Keyport captures it) /
   * `refunded` name the payment in `paymentRef`; `dispute` (a chargeback opened, changed or closed) names the dispute
   * in `disputeRef` too. Anything else is `ignored` (answered 200, nothing done).
   */
  kind: 'payment_succeeded' | 'payment_failed' | 'payment_authorized' | 'refunded' | 'dispute' | 'ignored';
  /** The provider's type, e.g. 'payment_intent.succeeded'. */
  type: string;
  paymentRef: string | null;
  /** The dispute (`dp_…`) of a `dispute` event; null otherwise. */
  disputeRef: string | null;
}

/**
 * A dispute (chargeback) as the provider reports it, in Keyport's terms: `open`, `funds_withdrawn` (open, and the
 * disputed amount was taken from the seller's balance), `won` (closed in the seller's favour, or an inquiry closed
 * without a chargeback) or `lost` (the buyer keeps the money).
 */
export interface ProviderDispute {
  ref: string;
  paymentRef: string;
  state: 'open' | 'funds_withdrawn' | 'won' | 'lost';
  reason: string | null;
}

/** Why a webhook delivery was refused: no/invalid signature, or a body that is not an event. */
export class WebhookVerificationError extends Error {
  override name = 'WebhookVerificationError';
}

/** A failure of the provider (network, 5xx, unexpected answer): the caller answers 502 and may retry. */
export class PaymentProviderError extends Error {
  override name = 'PaymentProviderError';
}

export interface PaymentProvider {
  readonly name: 'stripe' | 'sandbox';
  /** Given to the browser by `GET /stripe/config` (`pk_…`; the sandbox's starts with `pk_sandbox_`). */
  readonly publishableKey: string;
  createPayment(input: CreatePaymentInput): Promise<ProviderPayment>;
  /** The payment as it is now at the provider; null when the provider does not know the ref. */
  retrievePayment(ref: string): Promise<ProviderPayment | null>;
  /**
   * Cancels a payment nobody will capture (no-op when it already succeeded or was canceled). An authorized card is
   * released: the hold on the buyer's card goes away and nothing is charged.
   */
  cancelPayment(ref: string): Promise<void>;
  /**
   * Captures an authorized payment (`requires_capture`) and returns it re-read. A payment that cannot be captured
   * (canceled, not authorized, captured already) is returned as it is: the caller reads its status.
   */
  capturePayment(ref: string, input: CapturePaymentInput): Promise<ProviderPayment>;
  /**
   * Refunds what remains of a succeeded payment and returns the payment re-read. The provider announces the refund
   * with its webhook; fulfilment reacts to that, not to this answer.
   */
  refundPayment(ref: string, input: RefundPaymentInput): Promise<ProviderPayment>;
  /** The dispute as it is now at the provider; null when the provider does not know the ref. */
  retrieveDispute(ref: string): Promise<ProviderDispute | null>;
  /**
   * Verifies a webhook delivery on its raw bytes and signature header (`Stripe-Signature`), within the tolerance of
   * 5 minutes. Throws WebhookVerificationError when it is not authentic.
   */
  verifyWebhook(rawBody: Buffer, signatureHeader: string | undefined): ProviderEvent;
}
