import { isDeepStrictEqual } from 'node:util';
import type { FastifyBaseLogger } from 'fastify';
import { CARD_PAYMENT_MESSAGES } from '@keyport/shared/domain/card-payment';
import { creditsLabel } from '@keyport/shared/domain/credit-packs';
import { upgradePathLabel } from '@keyport/shared/domain/upgrade-paths';
import type { Db } from '../../db/client';
import { AppError, conflict } from '../../http/errors';
import { PaymentProviderError, type PaymentProvider, type ProviderPayment } from '../../integrations/payments/port';
import type { CaptureAttempt, CaptureFlow } from './capture-flow';
import { PROVIDER_UNAVAILABLE } from './order-messages';
import { paymentMismatch, type Settlement } from './order-settle';
import * as repo from './payments.repo';

export interface StartedPayment {
  paymentRef: string;
  clientSecret: string;
  order: repo.OrderRow;
}

export interface OrderStartsDeps {
  db: Db;
  provider: PaymentProvider;
  /** Settles a payment the provider reports paid (the webhook's code, in one transaction with its effects). */
  settlePaid: (payment: ProviderPayment) => Promise<Settlement | 'duplicate' | null>;
  captures: Pick<CaptureFlow, 'claimAndCapture' | 'awaitCapture'>;
  log: FastifyBaseLogger;
}

/**
 * Start (issue 21: payments.service split into quote, start, settle and refund): the pending order of a quote and its
 * card payment at the provider (the same quote reuses both, a different one replaces them), and a card payment as
 * re-read from the provider captured through a claim or settled.
 */
export function createOrderStarts(deps: OrderStartsDeps) {
  const { db, provider, log } = deps;
  const { claimAndCapture, awaitCapture } = deps.captures;

  /** Calls the provider; its failures become a 502 the person can retry (nothing was written). */
  async function atProvider<T>(call: () => Promise<T>): Promise<T> {
    try {
      return await call();
    } catch (error) {
      if (error instanceof PaymentProviderError) {
        log.warn({ err: error }, 'payment provider call failed');
        throw new AppError(502, PROVIDER_UNAVAILABLE, 'provider_unavailable');
      }
      throw error;
    }
  }

  /** The order's payment at the provider, created once per order (the idempotency key is the order's). */
  async function ensurePayment(order: repo.OrderRow): Promise<ProviderPayment | null> {
    if (order.providerPaymentId) {
      const existing = await atProvider(() => provider.retrievePayment(order.providerPaymentId!));
      return existing && existing.status !== 'canceled' ? existing : null;
    }
    const payment = await atProvider(() =>
      provider.createPayment({
        amountCents: order.totalAmountCents,
        currency: 'usd',
        description: describeOrder(order),
        metadata: paymentMetadata(order),
        receiptEmail: order.billing.email,
        idempotencyKey: `keyport-order-${order.id}`,
      }),
    );
    await repo.attachPayment(db, order.id, provider.name, payment.ref);
    return payment;
  }

  /** The card provider's side of a capture: the authorized PaymentIntent of `order`. */
  function cardAttempt(paymentRef: string): CaptureAttempt {
    return {
      providerName: provider.name,
      // One idempotency key per claim: a retry within it gets Stripe's stored answer.
      capture: (claimed) =>
        provider.capturePayment(paymentRef, {
          idempotencyKey: `keyport-capture-${claimed.id}-${claimed.updatedAt.getTime()}`,
        }),
      reread: () => provider.retrievePayment(paymentRef),
      release: () => cancelQuietly(paymentRef),
      notCaptured: (payment) =>
        new AppError(402, payment.lastError ?? CARD_PAYMENT_MESSAGES.confirmationFailed, 'not_captured'),
    };
  }

  /**
   * A card payment as re-read from the provider: an authorized one is captured through a claim, any other is settled
   * (a success recorded, a decline kept on the order).
   */
  async function applyCardPayment(order: repo.OrderRow, payment: ProviderPayment): Promise<Settlement> {
    if (payment.status === 'requires_capture') {
      const mismatch = paymentMismatch(payment, order);
      if (!mismatch) return claimAndCapture(order, cardAttempt(payment.ref));
      // No money moves for a payment that is not the one we priced: a person looks at it (the hold is released).
      const flagged = await repo.flagOrder(db, order.id, 'review', mismatch, ['pending', 'superseded']);
      if (flagged) log.error({ orderId: order.id, paymentRef: payment.ref }, 'payment does not match its order');
      await cancelQuietly(payment.ref);
      return { order: flagged ?? (await repo.findOrder(db, order.id)) ?? order, key: null };
    }
    const settled = await deps.settlePaid(payment);
    const current = (await repo.findOrder(db, order.id)) ?? order;
    if (current.status === 'capturing') return awaitCapture(order.id);
    return { order: current, key: settled && settled !== 'duplicate' ? settled.key : null };
  }

  /** The payments of orders voided by a tier change are let go at the provider (after that change committed). */
  async function releaseOrders(orders: repo.OrderRow[]): Promise<void> {
    for (const order of orders) {
      if (order.providerPaymentId && order.provider === provider.name) await cancelQuietly(order.providerPaymentId);
    }
  }

  /**
   * The pending order for `wanted` (the key's for an upgrade, the user's for a credit pack): the open one when it is
   * the same quote (same provider too), else a new one — a different pending order is superseded first (and its card
   * payment canceled). Null when another request inserted its order first (the partial unique index decides).
   */
  async function openOrder(wanted: repo.NewOrder): Promise<repo.OrderRow | null> {
    let order = await repo.findPendingOrder(db, wanted);
    if (order && !isSameOrder(order, wanted)) {
      // Its card payment is cancelled before the new quote is answered (issue 19): a confirmation of it then fails
      // at the provider. An outage is a 502 and changes nothing. (Even uncancelled, it could never be captured: a
      // capture needs a claim, and only a pending order can be claimed.)
      if (order.providerPaymentId && order.provider === provider.name) {
        const ref = order.providerPaymentId;
        await atProvider(() => provider.cancelPayment(ref));
      }
      await repo.supersedeOrder(db, order.id);
      order = null;
    }
    return order ?? (await repo.insertPendingOrder(db, wanted));
  }

  /**
   * The pending order for `wanted` and its card payment: the same quote reuses both, a different one replaces them;
   * two calls at once share one.
   */
  async function startOrder(wanted: repo.NewOrder): Promise<StartedPayment> {
    for (let attempt = 0; attempt < 3; attempt++) {
      const order = await openOrder(wanted);
      if (!order) continue; // another start inserted its order first: use that one
      const payment = await ensurePayment(order);
      if (!payment) {
        // Its payment was canceled at the provider: this order cannot be paid any more.
        await repo.supersedeOrder(db, order.id);
        continue;
      }
      if (payment.status === 'succeeded' || payment.status === 'requires_capture') {
        // Paid or authorized already (its webhook may still be on the way): settle it, never take a second payment.
        const settled = await applyCardPayment(order, payment);
        if (settled.order.status === 'pending') continue;
        throw alreadyPaid(wanted);
      }
      const current = (await repo.findOrder(db, order.id)) ?? order;
      return { paymentRef: payment.ref, clientSecret: payment.clientSecret, order: current };
    }
    throw paymentInProgress(wanted);
  }

  async function cancelQuietly(paymentRef: string) {
    try {
      await provider.cancelPayment(paymentRef);
    } catch (error) {
      log.warn({ err: error, paymentRef }, 'could not cancel a superseded payment');
    }
  }

  return { atProvider, cardAttempt, applyCardPayment, releaseOrders, openOrder, startOrder, cancelQuietly };
}
export type OrderStarts = ReturnType<typeof createOrderStarts>;

/** What the payer sees at the provider: 'Keyport upgrade LITE → REGULAR (order 7)', 'Keyport 12 credits (order 8)'. */
export function describeOrder(order: repo.OrderRow): string {
  const paid = repo.kinded(order);
  return paid.kind === 'upgrade'
    ? `Keyport upgrade ${upgradePathLabel(paid.path)} (order ${paid.id})`
    : `Keyport ${creditsLabel(paid.credits)} (order ${paid.id})`;
}

/** The provider payment's metadata: our order id (settle checks it) and what the order is for. */
function paymentMetadata(order: repo.OrderRow): Record<string, string> {
  const paid = repo.kinded(order);
  return paid.kind === 'upgrade'
    ? {
        order_id: String(paid.id),
        kind: paid.kind,
        license_key_id: String(paid.licenseKeyId),
        upgrade_path: paid.path,
      }
    : {
        order_id: String(paid.id),
        kind: paid.kind,
        credit_pack_id: String(paid.creditPackId),
        credits: String(paid.credits),
      };
}

/** A start found its order paid already. */
export function alreadyPaid(order: Pick<repo.NewOrder, 'kind'>): AppError {
  return conflict(
    order.kind === 'credit_pack' ? 'This credit pack is already paid.' : 'This upgrade is already paid.',
    'already_paid',
  );
}

/** Three starts in a row lost to concurrent ones. */
export function paymentInProgress(order: Pick<repo.NewOrder, 'kind'>): AppError {
  return conflict(
    order.kind === 'credit_pack'
      ? 'Another payment for credits is starting. Please try again.'
      : 'Another payment for this license is starting. Please try again.',
    'payment_in_progress',
  );
}

/** Whether a pending order is the one this request would create (same payer, path or pack, amounts, billing, provider). */
function isSameOrder(order: repo.OrderRow, wanted: repo.NewOrder): boolean {
  return (
    order.userId === wanted.userId &&
    order.kind === (wanted.kind ?? 'upgrade') &&
    order.path === (wanted.path ?? null) &&
    order.creditPackId === (wanted.creditPackId ?? null) &&
    order.credits === (wanted.credits ?? null) &&
    order.priceId === wanted.priceId &&
    order.provider === wanted.provider &&
    order.baseAmountCents === wanted.baseAmountCents &&
    order.vatAmountCents === wanted.vatAmountCents &&
    order.totalAmountCents === wanted.totalAmountCents &&
    order.vatRateBp === wanted.vatRateBp &&
    order.reverseCharge === wanted.reverseCharge &&
    order.vatId === (wanted.vatId ?? null) &&
    // jsonb gives keys back in its own order: compared as values, whatever the keys' order.
    isDeepStrictEqual(order.billing, wanted.billing)
  );
}
