import { createHmac } from 'node:crypto';
import Stripe from 'stripe';
import { type ProviderEvent, WebhookVerificationError } from './port';

/** How old a signed delivery may be (Stripe's own default: 5 minutes). */
export const WEBHOOK_TOLERANCE_SECONDS = 300;

/**
 * Verifies a Stripe-signed webhook delivery (`Stripe-Signature: t=…,v1=HMAC-SHA256(secret, "t.body")`) on its raw
 * bytes with the Stripe SDK — no network — and reduces the event to what fulfilment needs. Both adapters use it: the
 * sandbox signs its events exactly like Stripe, so they take the same route and the same checks.
 */
export function verifyStripeWebhook(
  rawBody: Buffer,
  signatureHeader: string | undefined,
  secret: string,
): ProviderEvent {
  if (!signatureHeader) throw new WebhookVerificationError('Missing Stripe-Signature header');
  // The SDK refuses deliveries older than the tolerance; one dated further ahead than that is refused too.
  const timestamp = Number(/(?:^|,)t=(\d+)/.exec(signatureHeader)?.[1]);
  if (timestamp - Math.floor(Date.now() / 1000) > WEBHOOK_TOLERANCE_SECONDS) {
    throw new WebhookVerificationError('Webhook refused: Timestamp outside the tolerance zone');
  }
  let event: unknown;
  try {
    event = Stripe.webhooks.constructEvent(rawBody, signatureHeader, secret, WEBHOOK_TOLERANCE_SECONDS);
  } catch (error) {
    // A valid signature on a body that is not JSON fails here too (the SDK parses after verifying).
    const reason = error instanceof Stripe.errors.StripeSignatureVerificationError ? error.message : 'Invalid body';
    throw new WebhookVerificationError(`Webhook refused: ${reason}`);
  }
  return toProviderEvent(event);
}

/** The `Stripe-Signature` header for a body: what Stripe sends, and what the sandbox sends. */
export function signStripePayload(payload: string, secret: string, timestampSeconds: number): string {
  const signature = createHmac('sha256', secret).update(`${timestampSeconds}.${payload}`, 'utf8').digest('hex');
  return `t=${timestampSeconds},v1=${signature}`;
}

const KINDS: Record<string, ProviderEvent['kind']> = {
  'payment_intent.succeeded': 'payment_succeeded',
  'payment_intent.payment_failed': 'payment_failed',
  // A card confirmed with manual capture: the amount is held, Keyport captures it once it checked the upgrade.
  'payment_intent.amount_capturable_updated': 'payment_authorized',
  'charge.refunded': 'refunded',
  // Dispute objects: their payment_intent names the payment; the dispute is re-read, its state decides (ADR 035).
  'charge.dispute.created': 'dispute',
  'charge.dispute.updated': 'dispute',
  'charge.dispute.closed': 'dispute',
  'charge.dispute.funds_withdrawn': 'dispute',
  'charge.dispute.funds_reinstated': 'dispute',
};

/** Maps an authentic event to Keyport's terms; a body that is not an event is refused like a bad signature. */
function toProviderEvent(event: unknown): ProviderEvent {
  if (!isRecord(event) || typeof event.id !== 'string' || typeof event.type !== 'string' || !event.id) {
    throw new WebhookVerificationError('Webhook refused: the body is not an event');
  }
  const object = isRecord(event.data) && isRecord(event.data.object) ? event.data.object : null;
  const kind = KINDS[event.type] ?? 'ignored';
  const paymentRef =
    kind === 'refunded' || kind === 'dispute'
      ? intentIdOf(object?.payment_intent)
      : kind === 'ignored'
        ? null
        : intentIdOf(object?.id);
  const disputeRef = kind === 'dispute' && typeof object?.id === 'string' && object.id ? object.id : null;
  if (kind !== 'ignored' && (!paymentRef || (kind === 'dispute' && !disputeRef))) {
    // A charge without a PaymentIntent (not one of ours) or a malformed payment event: nothing to fulfil.
    return { id: event.id, kind: 'ignored', type: event.type, paymentRef: null, disputeRef: null };
  }
  return { id: event.id, kind, type: event.type, paymentRef, disputeRef };
}

/** A PaymentIntent id, whether the field holds the id or the expanded object. */
function intentIdOf(value: unknown): string | null {
  if (typeof value === 'string' && value.startsWith('pi_')) return value;
  if (isRecord(value)) return intentIdOf(value.id);
  return null;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
