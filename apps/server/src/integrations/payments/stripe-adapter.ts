import Stripe from 'stripe';
import {
  type CapturePaymentInput,
  type CreatePaymentInput,
  PaymentProviderError,
  type PaymentProvider,
  type ProviderDispute,
  type ProviderPayment,
  type ProviderPaymentStatus,
  type RefundPaymentInput,
} from './port';
import { redactSecrets } from './redact-secrets';
import { verifyStripeWebhook } from './stripe-webhook';

export interface StripePaymentProviderOptions {
  secretKey: string;
  publishableKey: string;
  webhookSecret: string;
  /** Another API host (a local fake in tests, a proxy): its protocol, host and port replace api.stripe.com. */
  apiBase?: URL | null;
}

export type StripePaymentProvider = PaymentProvider & { readonly name: 'stripe' };

/**
 * The real card provider: Stripe PaymentIntents in USD cents, created with an idempotency key, confirmed by the
 * browser with Stripe Elements; webhooks verified on the raw body. Errors never carry the secret key.
 */
export function createStripePaymentProvider(options: StripePaymentProviderOptions): StripePaymentProvider {
  const stripe = new Stripe(options.secretKey, {
    // The SDK retries network failures and 409/5xx answers itself, re-sending the same idempotency key.
    maxNetworkRetries: 2,
    timeout: 20_000,
    telemetry: false,
    ...(options.apiBase ? apiHost(options.apiBase) : {}),
  });

  return {
    name: 'stripe',
    publishableKey: options.publishableKey,

    async createPayment(input: CreatePaymentInput) {
      const intent = await call('create the payment', () =>
        stripe.paymentIntents.create(
          {
            amount: input.amountCents,
            currency: input.currency,
            // Cards only (the dialog shows a card element, nothing else). The SDK's pinned API version names this
            // `allowed_payment_method_types` (formerly `payment_method_types`); automatic payment methods stay off.
            allowed_payment_method_types: ['card'],
            // The card is only authorized when the browser confirms it; Keyport captures it after checking, in the
            // database, that the upgrade still applies (ADR 035). Nothing is charged for an order that no longer does.
            capture_method: 'manual',
            description: input.description,
            metadata: input.metadata,
            ...(input.receiptEmail ? { receipt_email: input.receiptEmail } : {}),
          },
          { idempotencyKey: input.idempotencyKey },
        ),
      );
      return toProviderPayment(intent);
    },

    async retrievePayment(ref) {
      try {
        // latest_charge expanded: its amount_refunded is what the payment has refunded.
        const intent = await stripe.paymentIntents.retrieve(ref, { expand: ['latest_charge'] });
        return toProviderPayment(intent);
      } catch (error) {
        if (error instanceof Stripe.errors.StripeError && error.code === 'resource_missing') return null;
        throw toProviderError('read the payment', error);
      }
    },

    async cancelPayment(ref) {
      try {
        await stripe.paymentIntents.cancel(ref);
      } catch (error) {
        if (error instanceof Stripe.errors.StripeError && error.code === 'payment_intent_unexpected_state') {
          // Stripe refuses to cancel a payment that succeeded or is already canceled: nothing left to do then.
          const current = await call('read the payment', () => stripe.paymentIntents.retrieve(ref));
          if (current.status === 'succeeded' || current.status === 'canceled') return;
        }
        throw toProviderError('cancel the payment', error);
      }
    },

    async capturePayment(ref: string, input: CapturePaymentInput) {
      try {
        await stripe.paymentIntents.capture(ref, {}, { idempotencyKey: input.idempotencyKey });
      } catch (error) {
        // Canceled, not authorized, or captured already: Stripe refuses; the payment as it is now answers.
        if (!(error instanceof Stripe.errors.StripeError && error.code === 'payment_intent_unexpected_state')) {
          throw toProviderError('capture the payment', error);
        }
      }
      const payment = await call('read the payment', () =>
        stripe.paymentIntents.retrieve(ref, { expand: ['latest_charge'] }),
      );
      return toProviderPayment(payment);
    },

    async retrieveDispute(ref) {
      try {
        return toProviderDispute(await stripe.disputes.retrieve(ref));
      } catch (error) {
        if (error instanceof Stripe.errors.StripeError && error.code === 'resource_missing') return null;
        throw toProviderError('read the dispute', error);
      }
    },

    async refundPayment(ref: string, input: RefundPaymentInput) {
      // No amount: Stripe refunds what remains of the charge. The key makes a retry return the same refund.
      await call('refund the payment', () =>
        stripe.refunds.create({ payment_intent: ref }, { idempotencyKey: input.idempotencyKey }),
      );
      const payment = await call('read the payment', () =>
        stripe.paymentIntents.retrieve(ref, { expand: ['latest_charge'] }),
      );
      return toProviderPayment(payment);
    },

    verifyWebhook(rawBody, signatureHeader) {
      return verifyStripeWebhook(rawBody, signatureHeader, options.webhookSecret);
    },
  };
}

function apiHost(base: URL): { host: string; port: number; protocol: 'http' | 'https' } {
  const protocol = base.protocol === 'http:' ? 'http' : 'https';
  return { host: base.hostname, port: Number(base.port) || (protocol === 'http' ? 80 : 443), protocol };
}

async function call<T>(what: string, request: () => Promise<T>): Promise<T> {
  try {
    return await request();
  } catch (error) {
    throw toProviderError(what, error);
  }
}

const STATUSES: Record<string, ProviderPaymentStatus> = {
  requires_payment_method: 'requires_payment',
  requires_confirmation: 'requires_payment',
  requires_action: 'requires_payment',
  requires_capture: 'requires_capture',
  processing: 'processing',
  succeeded: 'succeeded',
  canceled: 'canceled',
};

function toProviderPayment(intent: Stripe.PaymentIntent): ProviderPayment {
  const status = STATUSES[intent.status];
  if (!status || !intent.client_secret) {
    throw new PaymentProviderError(`Stripe answered an unexpected payment (status ${intent.status})`);
  }
  const charge = typeof intent.latest_charge === 'object' ? intent.latest_charge : null;
  return {
    ref: intent.id,
    status,
    amountCents: intent.amount,
    currency: intent.currency,
    metadata: { ...intent.metadata },
    refundedCents: charge?.amount_refunded ?? 0,
    clientSecret: intent.client_secret,
    lastError: intent.last_payment_error?.message ?? null,
  };
}

/**
 * A Stripe Dispute in Keyport's terms. `lost` is lost; `won`, and an inquiry closed without a chargeback
 * (`warning_closed`) or a prevented one, leave the money with the seller; otherwise it is open, with the funds withdrawn
 * when its balance transactions took money from the seller's balance and nothing reinstated it.
 */
function toProviderDispute(dispute: Stripe.Dispute): ProviderDispute {
  const paymentRef = typeof dispute.payment_intent === 'string' ? dispute.payment_intent : dispute.payment_intent?.id;
  if (!paymentRef) throw new PaymentProviderError('Stripe answered a dispute without a payment');
  const status: string = dispute.status;
  const withdrawn = (dispute.balance_transactions ?? []).reduce((sum, transaction) => sum + transaction.amount, 0) < 0;
  const state: ProviderDispute['state'] =
    status === 'lost'
      ? 'lost'
      : status === 'won' || status === 'warning_closed' || status === 'prevented'
        ? 'won'
        : withdrawn
          ? 'funds_withdrawn'
          : 'open';
  return { ref: dispute.id, paymentRef, state, reason: dispute.reason ?? null };
}

/**
 * Stripe's message with anything key-like removed (an authentication error quotes part of the key), plus the
 * error's type, code, status and request id: enough to find the request in Stripe's dashboard.
 */
function toProviderError(what: string, error: unknown): PaymentProviderError {
  if (error instanceof PaymentProviderError) return error;
  if (error instanceof Stripe.errors.StripeError) {
    const details = [error.type, error.code, error.statusCode, error.requestId].filter(Boolean).join(', ');
    return new PaymentProviderError(`Stripe could not ${what} (${details}): ${redactSecrets(error.message)}`);
  }
  return new PaymentProviderError(`Stripe could not ${what}: unexpected error`);
}
