import type { Key } from '@keyport/shared/contracts/keys';
import { creditsLabel } from '@keyport/shared/domain/credit-packs';
import type { UpgradePath } from '@keyport/shared/domain/upgrade-paths';
import type { FastifyBaseLogger } from 'fastify';
import type { DbOrTx } from '../../db/client';
import type { Outbox } from '../../integrations/email/outbox';
import type { EurReferenceRate } from '../../integrations/exchange-rates/port';
import type { ProviderPayment } from '../../integrations/payments/port';
import type { AnalyticsService } from '../analytics/analytics.service';
import type { CreditsService } from '../credits/credits.service';
import type { InvoicesService } from '../invoices/invoices.service';
import type { PaidOrder, UpgradesService } from '../upgrades/upgrades.service';
import { creditsReceiptEmail, receiptEmail, upgradeNotAppliedEmail } from './payment-emails';
import * as repo from './payments.repo';

/** What a settled payment changed: the order as it is now, and the key when an upgrade was applied just now. */
export interface Settlement {
  order: repo.OrderRow;
  key: Key | null;
}

export interface OrderSettlementDeps {
  upgrades: Pick<UpgradesService, 'applyPaidUpgrade'>;
  credits: Pick<CreditsService, 'grant'>;
  invoices: Pick<InvoicesService, 'orderCompleted'>;
  outbox: Outbox;
  analytics: Pick<AnalyticsService, 'recordUpgradePurchase'>;
  /** The portal's address, for the receipt email's link to the invoices tab. */
  publicUrl: () => string;
  /** The card provider's name (the default payer of a payment). */
  providerName: string;
  log: FastifyBaseLogger;
  now: () => Date;
}

/**
 * Settle (issue 21: payments.service split into quote, start, settle and refund): a payment as the provider reports it
 * completes its order once, inside the caller's transaction, with its invoice; then the upgrade reaches its key or the
 * pack's credits the ledger, and the receipt goes to the outbox.
 */
export function createOrderSettlement(deps: OrderSettlementDeps) {
  const { upgrades, credits, outbox, analytics, log, now } = deps;

  /**
   * Settles a payment as the provider reports it, inside `tx`: a success completes its order once and applies the
   * upgrade; a decline is recorded; anything that does not match the order is flagged for a person, never applied.
   * `providerName` is whoever took the money: the card provider, or the wallet (PayPal) with its order as `payment`.
   */
  async function settle(
    payment: ProviderPayment,
    tx: DbOrTx,
    providerName: string = deps.providerName,
    eurRate: EurReferenceRate | null = null,
  ): Promise<Settlement | null> {
    const order = await repo.findOrderByPayment(tx, providerName, payment.ref);
    if (!order) {
      log.warn({ paymentRef: payment.ref }, 'a payment without an order');
      return null;
    }
    if (payment.status !== 'succeeded') {
      if (payment.lastError) await repo.recordPaymentError(tx, order.id, payment.lastError);
      return { order: (await repo.findOrder(tx, order.id)) ?? order, key: null };
    }
    const mismatch = paymentMismatch(payment, order);
    if (mismatch) {
      const flagged = await repo.flagOrder(tx, order.id, 'review', mismatch, ['pending', 'capturing', 'superseded']);
      if (flagged) log.error({ orderId: order.id, paymentRef: payment.ref }, 'payment does not match its order');
      return { order: flagged ?? order, key: null };
    }
    const paidAt = now();
    const completed = await repo.completeOrder(tx, order.id, paidAt);
    if (!completed) return { order, key: null }; // settled before: by another delivery or the sync
    await deps.invoices.orderCompleted(tx, completed, eurRate);
    const paid = repo.kinded(completed);
    return paid.kind === 'upgrade' ? fulfilUpgrade(paid, tx, paidAt) : fulfilCreditPack(paid, tx, paidAt);
  }

  /** A paid upgrade reaches its key (or the order is flagged for a refund when the key changed meanwhile). */
  async function fulfilUpgrade(order: repo.UpgradeOrderRow, tx: DbOrTx, paidAt: Date): Promise<Settlement> {
    const applied = await upgrades.applyPaidUpgrade(toPaidOrder(order), tx);
    if (!applied.applied) {
      const flagged = await repo.flagOrder(tx, order.id, 'needs_refund', applied.reason, ['completed']);
      log.error({ orderId: order.id }, 'a paid upgrade could not be applied; flagged for refund');
      await outbox.enqueue(tx, upgradeNotAppliedEmail(order));
      return { order: flagged ?? order, key: null };
    }
    await repo.markFulfilled(tx, order.id, paidAt);
    await analytics.recordUpgradePurchase(tx, order);
    await outbox.enqueue(tx, receiptEmail(order, deps.publicUrl()));
    return { order, key: applied.key };
  }

  /**
   * A paid credit pack adds a `purchase` ledger row of its credits (source `order:<id>`: unique, so never twice; credits
   * owed from a clawback are repaid first). No analytics event: the upgrade purchase event is for upgrades (ADR 023).
   */
  async function fulfilCreditPack(order: repo.CreditPackOrderRow, tx: DbOrTx, paidAt: Date): Promise<Settlement> {
    await credits.grant(tx, {
      userId: order.userId,
      kind: 'purchase',
      amount: order.credits,
      sourceRef: `order:${order.id}`,
      note: `${creditsLabel(order.credits)} bought (order ${order.id})`,
    });
    await repo.markFulfilled(tx, order.id, paidAt);
    await outbox.enqueue(tx, creditsReceiptEmail(order, deps.publicUrl()));
    return { order, key: null };
  }

  return { settle };
}
export type OrderSettlement = ReturnType<typeof createOrderSettlement>;

/** Why a payment is not the one its order priced (amount, currency, our order id), or null when it is. */
export function paymentMismatch(payment: ProviderPayment, order: repo.OrderRow): string | null {
  if (
    payment.amountCents === order.totalAmountCents &&
    payment.currency === order.currency &&
    payment.metadata.order_id === String(order.id)
  ) {
    return null;
  }
  return `The payment (${payment.amountCents} ${payment.currency}, order ${payment.metadata.order_id ?? '?'}) does not match order ${order.id} (${order.totalAmountCents} ${order.currency}).`;
}

export function toPaidOrder(order: repo.UpgradeOrderRow): PaidOrder {
  return {
    id: order.id,
    userId: order.userId,
    licenseKeyId: order.licenseKeyId,
    licenseKey: order.licenseKey,
    path: order.path as UpgradePath,
    fromTier: order.fromTier,
    toTier: order.toTier,
    provider: order.provider,
    currency: order.currency,
    baseAmountCents: order.baseAmountCents,
    vatAmountCents: order.vatAmountCents,
    totalAmountCents: order.totalAmountCents,
    vatRateBp: order.vatRateBp,
    reverseCharge: order.reverseCharge,
    paymentCompletedAt: order.paymentCompletedAt,
  };
}
