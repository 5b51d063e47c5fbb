import type { FastifyBaseLogger } from 'fastify';
import type { Key } from '@keyport/shared/contracts/keys';
import type { BillingInput } from '@keyport/shared/contracts/payments';
import type { Tier } from '@keyport/shared/domain/tiers';
import type { Db } from '../../db/client';
import { AppError, badRequest, notFound } from '../../http/errors';
import type { RateLimiter } from '../../http/rate-limit';
import type { ProviderPayment } from '../../integrations/payments/port';
import {
  PaypalCaptureError,
  type PaypalEvent,
  type PaypalOrder,
  PaypalProviderError,
  type PaypalProvider,
  PaypalWebhookError,
  type WebhookHeaders,
} from '../../integrations/paypal/port';
import type { Buyer } from '../credits/credit-packs.service';
import { ORDER_MESSAGES, orderClosed } from './order-messages';
import { CaptureRefused, type CaptureAttempt } from './capture-flow';
import {
  INVALID_SIGNATURE,
  alreadyPaid,
  describeOrder,
  paymentInProgress,
  type PaymentCore,
  type Quote,
  type StartPackPaymentInput,
  type StartPaymentInput,
} from './payments.service';
import * as repo from './payments.repo';

/** §8 wallet texts (shown by the browser in a yellow line; tests assert them). */
export const WALLET_MESSAGES = {
  noPrice: 'No price configured',
  createFailed: 'Failed to create order',
  captureFailed: 'Capture failed',
} as const;
export const WALLET_ORDER_NOT_FOUND = 'Order not found.';
export const COUNTRY_MISMATCH = 'Choose your country';

/** Where PayPal sends the payer back (it appends `token=<order id>&PayerID=…`; a cancel appends `token`). */
export const WALLET_RETURN_PATH = '/customer/my-keys?paypalReturn=true';
export const WALLET_CANCEL_PATH = '/customer/my-keys?paypalCancel=true';

export interface PaypalCheckoutServiceDeps {
  db: Db;
  wallet: PaypalProvider;
  /** The card path's quote, order and fulfilment (payments.service): PayPal is a second way into it. */
  core: PaymentCore;
  /** Shared with card payment starts (each may create an order at a provider). */
  startLimit: RateLimiter;
  /** The portal's absolute origin, for PayPal's return and cancel URLs. */
  publicUrl: () => string;
  log: FastifyBaseLogger;
}

export interface CreatedPaypalOrder {
  order: repo.OrderRow;
  paypalOrder: PaypalOrder;
  approveUrl: string;
}

/** §7 POST /stripe/paypal/create-order, parsed: the spec's flat fields. */
export interface CreatePaypalOrderBody {
  price_id: string;
  theme_type: Tier;
  key: string;
  country_code: string;
  vat_id?: string | null;
  customer_name: string;
  customer_email: string;
  company_name?: string | null;
  is_business?: boolean;
  billing_address: {
    line1: string;
    line2?: string | null;
    city: string;
    state?: string | null;
    postal_code: string;
    country: string;
  };
}

/**
 * PayPal (Orders v2) as a second way into the card path: the same quote (ownership, path, price, VAT, billing), the
 * same `orders` row (provider 'paypal' or 'paypal_sandbox', provider_payment_id = PayPal's order id), the same
 * `settle`/`refund` in one short transaction. Every network call to the wallet runs outside any transaction.
 */
export function createPaypalCheckoutService(deps: PaypalCheckoutServiceDeps) {
  const { db, wallet, core, log } = deps;

  /** Calls the wallet; an outage becomes a 502 with the given text (nothing was written). */
  async function atPaypal<T>(call: () => Promise<T>, message: string): Promise<T> {
    try {
      return await call();
    } catch (error) {
      if (error instanceof PaypalProviderError) {
        log.warn({ err: error }, 'wallet call failed');
        throw new AppError(502, message, 'provider_unavailable');
      }
      throw error;
    }
  }

  /** Applies the order as re-read from the wallet: the card path's `process` (settle or refund, deduplicated). */
  function apply(kind: 'payment_succeeded' | 'refunded', order: PaypalOrder, event?: { id: string; type: string }) {
    return core.process(kind, asPayment(order), event, wallet.name);
  }

  /** A quote, its missing price id in the wallet's §8 words ('No price configured'). */
  async function paypalQuote(quoteOf: () => Promise<Quote>): Promise<Quote> {
    try {
      return await quoteOf();
    } catch (error) {
      if (error instanceof AppError && error.code === 'no_price_id')
        throw badRequest(WALLET_MESSAGES.noPrice, 'no_price_id');
      throw error;
    }
  }

  /**
   * The pending order for `wanted` (reused for the same quote, superseded for another) and its PayPal order, created
   * once per order (`PayPal-Request-Id` derived from our order id) with the order's total.
   */
  async function openPaypalOrder(wanted: repo.NewOrder): Promise<CreatedPaypalOrder> {
    for (let attempt = 0; attempt < 3; attempt++) {
      const order = await core.openOrder(wanted);
      if (!order) continue; // another request inserted its order first: use that one
      const paypalOrder = order.providerPaymentId
        ? await atPaypal(() => wallet.getOrder(order.providerPaymentId!), WALLET_MESSAGES.createFailed)
        : await atPaypal(
            () =>
              wallet.createOrder({
                amountCents: order.totalAmountCents,
                currency: 'USD',
                description: describeOrder(order),
                customId: String(order.id),
                invoiceId: `keyport-order-${order.id}`,
                returnUrl: `${deps.publicUrl()}${WALLET_RETURN_PATH}`,
                cancelUrl: `${deps.publicUrl()}${WALLET_CANCEL_PATH}`,
                requestId: `keyport-order-${order.id}`,
              }),
            WALLET_MESSAGES.createFailed,
          );
      if (!paypalOrder || paypalOrder.status === 'VOIDED') {
        // PayPal no longer has it (expired or voided): this order cannot be paid any more.
        await repo.supersedeOrder(db, order.id);
        continue;
      }
      // Concurrent requests for one order get the same PayPal order (same request id): the first attach wins.
      if (!order.providerPaymentId) await repo.attachPayment(db, order.id, wallet.name, paypalOrder.ref);
      if (paypalOrder.status === 'COMPLETED') {
        // Captured already (its webhook may still be on the way): settle it rather than take a second payment.
        await apply('payment_succeeded', paypalOrder);
        throw alreadyPaid(wanted);
      }
      const current = (await repo.findOrder(db, order.id)) ?? order;
      return {
        order: current,
        paypalOrder,
        // Approved already (the person came back another way): straight to the return, which captures.
        approveUrl: paypalOrder.approveUrl ?? `${WALLET_RETURN_PATH}&token=${encodeURIComponent(paypalOrder.ref)}`,
      };
    }
    throw paymentInProgress(wanted);
  }

  /** The capture side of PayPal for the card path's claim-and-capture flow. */
  function paypalAttempt(orderRef: string): CaptureAttempt {
    return {
      providerName: wallet.name,
      // One request id per claim: concurrent retries within it share PayPal's one answer; a later claim (the payer
      // chose another funding source after a decline) is a new request.
      async capture(claimed) {
        try {
          return asPayment(
            await wallet.captureOrder(orderRef, `keyport-capture-${claimed.id}-${claimed.updatedAt.getTime()}`),
          );
        } catch (error) {
          if (error instanceof PaypalCaptureError) {
            const answer = error.declined
              ? captureFailed(402, 'capture_declined')
              : captureFailed(409, 'order_not_approved');
            throw new CaptureRefused(answer, error.message);
          }
          throw error;
        }
      },
      reread: async () => {
        const current = await wallet.getOrder(orderRef);
        return current ? asPayment(current) : null;
      },
      // PayPal has no call that voids an unapproved CAPTURE order: it expires there; Keyport never captures it.
      release: async () => {},
      notCaptured: () => captureFailed(402, 'capture_declined'),
    };
  }

  /**
   * A dispute event: the dispute re-read from PayPal, its capture matched to our order (the transaction's `custom` is
   * our order id; the order re-read from PayPal must hold that capture), then applied like a card dispute.
   */
  async function handleDispute(event: PaypalEvent): Promise<{ duplicate: boolean }> {
    const dispute = await atPaypal(() => wallet.getDispute(event.disputeRef!), 'The payment provider did not answer.');
    const orderId = dispute?.customId && /^\d{1,10}$/.test(dispute.customId) ? Number(dispute.customId) : null;
    const ours = orderId === null ? null : await repo.findOrder(db, orderId);
    const ref = ours?.provider === wallet.name ? ours.providerPaymentId : null;
    const current = ref ? await atPaypal(() => wallet.getOrder(ref), 'The payment provider did not answer.') : null;
    if (!dispute || !ref || !current || !dispute.captureId || current.captureId !== dispute.captureId) {
      log.warn({ eventId: event.id, disputeRef: event.disputeRef }, 'wallet dispute without a matching order');
      return { duplicate: false };
    }
    const result = await core.processDispute(
      ref,
      { ref: dispute.ref, state: dispute.state, reason: dispute.reason },
      { id: event.id, type: event.type },
      wallet.name,
    );
    return { duplicate: result === 'duplicate' };
  }

  return {
    config: () => ({
      mode: wallet.name === 'paypal' ? ('paypal' as const) : ('sandbox' as const),
      clientId: wallet.clientId,
    }),

    /** §7 create-order: the pending upgrade order of the key and its PayPal order (`openPaypalOrder`). */
    async createOrder(userId: number, body: CreatePaypalOrderBody): Promise<CreatedPaypalOrder> {
      await deps.startLimit.hit(`payment-start:${userId}`);
      if (body.billing_address.country !== body.country_code) throw badRequest(COUNTRY_MISMATCH, 'country_mismatch');
      const payer = { id: userId, email: body.customer_email, name: body.customer_name };
      const quote = await paypalQuote(() => core.quoteFor(payer, toStartInput(body)));
      return openPaypalOrder(core.orderValues(userId, quote, wallet.name));
    },

    /** POST /credits/checkout/paypal/create-order: the same, for a credit pack (team members only). */
    async createPackOrder(buyer: Buyer, input: StartPackPaymentInput): Promise<CreatedPaypalOrder> {
      await deps.startLimit.hit(`payment-start:${buyer.id}`);
      const quote = await paypalQuote(() => core.quotePackFor(buyer, input));
      return openPaypalOrder(core.orderValues(buyer.id, quote, wallet.name));
    },

    /**
     * §7 capture-order: the caller's order only. The order is read from PayPal and compared with ours before any money
     * moves (a mismatch is flagged for a person and refused); then it is claimed — the upgrade must still apply, checked
     * in the database with the key held (issue 19, ADR 035) — captured with a request id of that claim, re-read, and
     * settled by the card path's code. An order that no longer applies is voided and not captured (409, with why).
     * Idempotent: a reload, another tab or the webhook find it settled.
     */
    async captureOrder(userId: number, orderRef: string): Promise<{ order: repo.OrderRow; key: Key | null }> {
      const order = await repo.findOrderByPayment(db, wallet.name, orderRef);
      if (!order || order.userId !== userId) throw notFound(WALLET_ORDER_NOT_FOUND, 'order_not_found');
      const answer = async (settled: { order: repo.OrderRow; key: Key | null }) => ({
        order: settled.order,
        key: settled.key ?? (settled.order.licenseKey ? await core.currentKey(userId, settled.order.licenseKey) : null),
      });
      if (order.status === 'review') throw captureFailed(409, 'amount_mismatch');
      // Replaced, cancelled, expired or no longer applicable: never captured.
      if (repo.CLOSED_UNPAID.includes(order.status)) throw orderClosed(order);
      if (order.status === 'capturing') return answer(await core.awaitCapture(order.id));
      // Settled before (another capture, the webhook): the same answer again, nothing changes.
      if (order.status !== 'pending') return answer({ order, key: null });
      const before = await atPaypal(() => wallet.getOrder(orderRef), WALLET_MESSAGES.captureFailed);
      if (!before) throw notFound(WALLET_ORDER_NOT_FOUND, 'order_not_found');
      const mismatch = differences(before, order);
      if (mismatch) {
        // No money moves for an order that is not ours as we priced it.
        const flagged = await repo.flagOrder(db, order.id, 'review', mismatch, ['pending', 'superseded']);
        if (flagged) log.error({ orderId: order.id, paypalOrder: orderRef }, 'wallet order does not match its order');
        throw captureFailed(409, 'amount_mismatch');
      }
      if (before.status === 'COMPLETED') {
        // Captured at PayPal already (its webhook may still be on the way): settled as it stands.
        await apply('payment_succeeded', before);
        return answer({ order: (await repo.findOrder(db, order.id)) ?? order, key: null });
      }
      if (before.status === 'VOIDED') {
        const voided = await repo.voidOrder(db, order.id, ORDER_MESSAGES.paypalCancelled, ['pending']);
        throw orderClosed(voided ?? order);
      }
      if (before.status !== 'APPROVED') throw captureFailed(409, 'order_not_approved');
      const settled = await core.claimAndCapture(order, paypalAttempt(orderRef));
      if (settled.order.status === 'review') throw captureFailed(409, 'amount_mismatch');
      return answer(settled);
    },

    /**
     * The buyer cancelled the PayPal checkout (the return with `paypalCancel`, or the Buttons' onCancel): the caller's
     * pending order becomes void, for good — an approval of it later is never captured (issue 19). An order settled or
     * closed meanwhile is answered as it stands.
     */
    async cancelOrder(userId: number, orderRef: string): Promise<repo.OrderRow> {
      const order = await repo.findOrderByPayment(db, wallet.name, orderRef);
      if (!order || order.userId !== userId) throw notFound(WALLET_ORDER_NOT_FOUND, 'order_not_found');
      return (await repo.voidOrder(db, order.id, ORDER_MESSAGES.paypalCancelled, ['pending'])) ?? order;
    },

    /** The sweeper resumes a PayPal capture whose process died after its claim (the key is still held). */
    async resumeCapture(order: repo.OrderRow): Promise<void> {
      if (!order.providerPaymentId || order.provider !== wallet.name) return;
      await core.captureClaimed(order, paypalAttempt(order.providerPaymentId));
    },

    /**
     * §7 wallet webhook: verified, deduplicated on the event id, the order re-read from PayPal, then the card path's
     * settle (`PAYMENT.CAPTURE.COMPLETED`) or refund (`PAYMENT.CAPTURE.REFUNDED`).
     */
    async handleWebhook(headers: WebhookHeaders, rawBody: Buffer): Promise<{ duplicate: boolean }> {
      let event;
      try {
        event = await wallet.verifyWebhook(headers, rawBody);
      } catch (error) {
        if (error instanceof PaypalWebhookError) throw badRequest(INVALID_SIGNATURE, 'invalid_signature');
        if (error instanceof PaypalProviderError) {
          log.warn({ err: error }, 'could not verify a wallet webhook');
          throw new AppError(502, 'The payment provider did not answer. Please try again.', 'provider_unavailable');
        }
        throw error;
      }
      if (event.kind === 'ignored') return { duplicate: false };
      if (await repo.isEventProcessed(db, wallet.name, event.id)) return { duplicate: true };
      if (event.kind === 'dispute') return handleDispute(event);
      let orderRef = event.orderRef;
      if (!orderRef && event.customId && /^\d{1,10}$/.test(event.customId)) {
        const ours = await repo.findOrder(db, Number(event.customId));
        if (ours?.provider === wallet.name) orderRef = ours.providerPaymentId;
      }
      if (!orderRef) {
        log.warn({ eventId: event.id, type: event.type }, 'wallet webhook without an order');
        return { duplicate: false };
      }
      const current = await atPaypal(() => wallet.getOrder(orderRef), 'The payment provider did not answer.');
      if (!current) {
        log.warn({ eventId: event.id, orderRef }, 'wallet webhook for an order the wallet does not know');
        return { duplicate: false };
      }
      const kind = event.kind === 'capture_refunded' ? 'refunded' : 'payment_succeeded';
      const result = await apply(kind, current, { id: event.id, type: event.type });
      return { duplicate: result === 'duplicate' };
    },
  };
}
export type PaypalCheckoutService = ReturnType<typeof createPaypalCheckoutService>;

function captureFailed(status: ConstructorParameters<typeof AppError>[0], code: string): AppError {
  return new AppError(status, WALLET_MESSAGES.captureFailed, code);
}

/** Why the wallet's order is not the one we priced, or null when amount, currency and our order id all match. */
function differences(paypalOrder: PaypalOrder, order: repo.OrderRow): string | null {
  if (
    paypalOrder.amountCents === order.totalAmountCents &&
    paypalOrder.currency.toLowerCase() === order.currency &&
    paypalOrder.customId === String(order.id)
  ) {
    return null;
  }
  return `The PayPal order (${paypalOrder.amountCents} ${paypalOrder.currency}, order ${paypalOrder.customId ?? '?'}) does not match order ${order.id} (${order.totalAmountCents} ${order.currency}).`;
}

/**
 * A wallet order in the card path's terms: a completed capture is a succeeded payment of the captured amount, with
 * our order id as its metadata (settle compares both with the order).
 */
function asPayment(order: PaypalOrder): ProviderPayment {
  const captured =
    order.status === 'COMPLETED' &&
    (order.captureStatus === 'COMPLETED' ||
      order.captureStatus === 'REFUNDED' ||
      order.captureStatus === 'PARTIALLY_REFUNDED');
  return {
    ref: order.ref,
    status: captured
      ? 'succeeded'
      : order.status === 'VOIDED'
        ? 'canceled'
        : order.captureStatus === 'PENDING'
          ? 'processing'
          : 'requires_payment',
    amountCents: order.captureId ? order.capturedCents : order.amountCents,
    currency: order.currency.toLowerCase(),
    metadata: order.customId ? { order_id: order.customId } : {},
    refundedCents: order.refundedCents,
    clientSecret: '',
    lastError:
      order.captureStatus === 'DECLINED' || order.captureStatus === 'FAILED' ? 'The capture was declined.' : null,
  };
}

/** The spec's flat body as the card path's billing input. */
function toStartInput(body: CreatePaypalOrderBody): StartPaymentInput {
  const company = body.company_name?.trim() ? body.company_name.trim() : null;
  const billing: BillingInput = {
    name: body.customer_name,
    email: body.customer_email,
    address: {
      line1: body.billing_address.line1,
      line2: body.billing_address.line2 ?? null,
      city: body.billing_address.city,
      state: body.billing_address.state ?? null,
      postal_code: body.billing_address.postal_code,
      country: body.country_code,
    },
    is_business: body.is_business ?? company !== null,
    company_name: company,
    vat_id: body.vat_id ?? null,
  };
  return { price_id: body.price_id, theme_type: body.theme_type, key: body.key, billing };
}
