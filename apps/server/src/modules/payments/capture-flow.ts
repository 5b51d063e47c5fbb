import type { FastifyBaseLogger } from 'fastify';
import type { Key } from '@keyport/shared/contracts/keys';
import { CARD_PAYMENT_MESSAGES } from '@keyport/shared/domain/card-payment';
import type { Db } from '../../db/client';
import { AppError, conflict, notFound } from '../../http/errors';
import type { ProviderPayment } from '../../integrations/payments/port';
import type { OrderClaims } from './order-claims';
import { ORDER_MESSAGES, PROVIDER_UNAVAILABLE, orderClosed } from './order-messages';
import * as repo from './payments.repo';

/** How long a capture waits for another request that is capturing the same order. */
const CAPTURE_WAIT_MS = 20_000;
const CAPTURE_POLL_MS = 100;

/**
 * A capture at whoever holds the authorized money (the card provider or the wallet). `capture` answers the payment
 * re-read after capturing, or throws `CaptureRefused` (declined, not approved: the claim is released) or anything else
 * (the outcome is unknown: the payment is re-read).
 */
export interface CaptureAttempt {
  providerName: string;
  capture(claimed: repo.OrderRow): Promise<ProviderPayment>;
  reread(): Promise<ProviderPayment | null>;
  /** Lets go of the payment at the provider when the order will never be captured (best effort, never throws). */
  release(): Promise<void>;
  /** What the buyer is told when the provider captured nothing and did not say why. */
  notCaptured(payment: ProviderPayment): AppError;
}

/** The provider refused to capture: `answer` is what the buyer is told, `message` the provider's reason. */
export class CaptureRefused extends Error {
  override name = 'CaptureRefused';
  constructor(
    readonly answer: AppError,
    message: string,
  ) {
    super(message);
  }
}

/** The order as it stands after a capture, and the key when the upgrade was applied just now. */
export interface Captured {
  order: repo.OrderRow;
  key: Key | null;
}

export interface CaptureFlowDeps {
  db: Db;
  claims: Pick<OrderClaims, 'claim'>;
  /** Settles a captured payment in its own transaction (payments' `process`): what was applied, or null. */
  settle: (payment: ProviderPayment, providerName: string) => Promise<{ key: Key | null } | null | 'duplicate'>;
  log: FastifyBaseLogger;
}

/**
 * Claim, capture, settle (issue 19, ADR 035): no money moves unless the claim — one short transaction with the key's
 * row locked — found the order still the key's open one and its upgrade still applicable. A claim that finds it no
 * longer applies voids the order, releases the payment at the provider and answers why (409). A claim held by another
 * request is waited for. The capture runs after the claim committed, outside any transaction; then the payment is
 * settled as any other.
 */
export function createCaptureFlow({ db, claims, settle, log }: CaptureFlowDeps) {
  /** The capture step of a claimed order (also what the sweeper resumes after a process died mid-capture). */
  async function captureClaimed(claimed: repo.OrderRow, attempt: CaptureAttempt): Promise<Captured> {
    let payment: ProviderPayment | null;
    let outage = false;
    try {
      payment = await attempt.capture(claimed);
    } catch (error) {
      if (error instanceof CaptureRefused) {
        await repo.releaseClaim(db, claimed.id, error.message);
        throw error.answer;
      }
      // The outcome is unknown (a timeout, an outage): what the provider says now decides.
      log.warn({ err: error, orderId: claimed.id }, 'a capture failed; reading the payment again');
      outage = true;
      payment = await attempt.reread().catch(() => null);
      // Not readable either: the order stays claimed (the key held) until the sweeper resumes it.
      if (!payment) throw new AppError(502, PROVIDER_UNAVAILABLE, 'provider_unavailable');
    }
    if (payment.status === 'succeeded') {
      const settled = await settle(payment, attempt.providerName);
      const current = (await repo.findOrder(db, claimed.id)) ?? claimed;
      return { order: current, key: settled && settled !== 'duplicate' ? settled.key : null };
    }
    if (payment.status === 'canceled') {
      const voided = await repo.voidOrder(db, claimed.id, ORDER_MESSAGES.paymentCancelled, ['capturing']);
      throw orderClosed(voided ?? { status: 'void', processingError: ORDER_MESSAGES.paymentCancelled });
    }
    // Nothing was captured: the claim is released, the buyer may try again.
    await repo.releaseClaim(db, claimed.id, payment.lastError);
    throw outage ? new AppError(502, PROVIDER_UNAVAILABLE, 'provider_unavailable') : attempt.notCaptured(payment);
  }

  /** Another request holds the claim: wait (briefly) for it to settle or release the order, then answer that. */
  async function awaitCapture(orderId: number): Promise<Captured> {
    const until = Date.now() + CAPTURE_WAIT_MS;
    for (;;) {
      const order = await repo.findOrder(db, orderId);
      if (!order) throw notFound('Payment not found.', 'payment_not_found');
      if (order.status !== 'capturing') {
        if (repo.CLOSED_UNPAID.includes(order.status)) throw orderClosed(order);
        if (order.status === 'pending') {
          throw new AppError(402, order.lastPaymentError ?? CARD_PAYMENT_MESSAGES.confirmationFailed, 'not_captured');
        }
        return { order, key: null };
      }
      if (Date.now() >= until) throw conflict(ORDER_MESSAGES.captureInProgress, 'capture_in_progress');
      await new Promise((resolve) => setTimeout(resolve, CAPTURE_POLL_MS));
    }
  }

  return {
    captureClaimed,
    awaitCapture,
    async claimAndCapture(order: repo.OrderRow, attempt: CaptureAttempt): Promise<Captured> {
      const claim = await claims.claim(order.id);
      switch (claim.kind) {
        case 'claimed':
          return captureClaimed(claim.order, attempt);
        case 'busy':
          return awaitCapture(order.id);
        case 'closed':
          await attempt.release();
          throw orderClosed(claim.order);
        case 'settled':
          return { order: claim.order, key: null };
      }
    },
  };
}
export type CaptureFlow = ReturnType<typeof createCaptureFlow>;
