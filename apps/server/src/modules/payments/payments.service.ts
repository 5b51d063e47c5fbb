import type { StaffCustomerOrder } from '@keyport/shared/contracts/staff-customers';
import type { FastifyBaseLogger } from 'fastify';
import { isDeepStrictEqual } from 'node:util';
import type { Key } from '@keyport/shared/contracts/keys';
import type { BillingInput, OrderQuote } from '@keyport/shared/contracts/payments';
import { BILLING_MESSAGES } from '@keyport/shared/domain/billing';
import { creditsLabel } from '@keyport/shared/domain/credit-packs';
import { CARD_PAYMENT_MESSAGES } from '@keyport/shared/domain/card-payment';
import type { Tier } from '@keyport/shared/domain/tiers';
import { findUpgradePath, upgradePathLabel, type UpgradePath } from '@keyport/shared/domain/upgrade-paths';
import type { VatCalculation } from '@keyport/shared/domain/vat';
import type { Db, DbOrTx } from '../../db/client';
import type { BillingSnapshot } from '../../db/schema';
import { AppError, badRequest, conflict, notFound } from '../../http/errors';
import type { RateLimiter } from '../../http/rate-limit';
import type { Outbox } from '../../integrations/email/outbox';
import type { EurReferenceRate } from '../../integrations/exchange-rates/port';
import {
  PaymentProviderError,
  WebhookVerificationError,
  type PaymentProvider,
  type ProviderEvent,
  type ProviderPayment,
} from '../../integrations/payments/port';
import type { AuditService } from '../audit/audit.service';
import type { AnalyticsService } from '../analytics/analytics.service';
import type { BillingService, VerifiedVatId } from '../billing/billing.service';
import type { Buyer, CreditPackRow, CreditPacksService } from '../credits/credit-packs.service';
import type { CreditsService } from '../credits/credits.service';
import type { InvoicesService } from '../invoices/invoices.service';
import type { KeysService } from '../keys/keys.service';
import type { PaidOrder, UpgradePrice, UpgradesService } from '../upgrades/upgrades.service';
import { createCaptureFlow, type CaptureAttempt } from './capture-flow';
import { billingFromMetadata, billingSnapshot, vatEvidence, type Payer, type PaymentMetadata } from './order-billing';
import { createOrderClaims } from './order-claims';
import { createOrderDisputes, type DisputeReport } from './order-disputes';
import { ORDER_MESSAGES, PROVIDER_UNAVAILABLE, orderClosed } from './order-messages';
import { creditsReceiptEmail, receiptEmail, refundEmail, upgradeNotAppliedEmail } from './payment-emails';
import * as repo from './payments.repo';

export const PAYMENT_NOT_FOUND = 'Payment not found.';
export const PRICE_MISMATCH = 'This price is not the price of this upgrade. Reload the page and try again.';
export const PACK_PRICE_MISMATCH = 'This price is not the price of this credit pack. Reload the page and try again.';
export const PACK_NO_PRICE_ID = 'This credit pack has no price configured yet.';
export const INVALID_SIGNATURE = 'Invalid webhook signature.';
export { PROVIDER_UNAVAILABLE } from './order-messages';

export interface PaymentsServiceDeps {
  db: Db;
  provider: PaymentProvider;
  keys: Pick<KeysService, 'requireOwnedKey' | 'lockKey'>;
  upgrades: Pick<UpgradesService, 'prices' | 'applyPaidUpgrade' | 'revertPaidUpgrade' | 'reapplyPaidUpgrade'>;
  /** The pack a team member pays for (the catalogue and the team-only rule live in modules/credits). */
  creditPacks: Pick<CreditPacksService, 'packForCheckout'>;
  /** A paid pack adds its credits to the ledger; a refund takes them back (in the payment's transaction). */
  credits: Pick<CreditsService, 'grant' | 'clawback'>;
  billing: Pick<BillingService, 'verifiedVatIdFor' | 'isCountry' | 'vatRates'>;
  outbox: Outbox;
  /** Invoices, credit notes and the audit entries of completions, refunds and disputes (same transactions). */
  invoices: Pick<
    InvoicesService,
    'orderCompleted' | 'orderRefunded' | 'orderDisputed' | 'orderChargedBack' | 'rateForSettlement'
  >;
  /** The steps of a dispute are audited in its transaction (issue 19). */
  audit: Pick<AuditService, 'record'>;
  /** The portal's address, for the receipt email's link to the invoices tab. */
  publicUrl: () => string;
  analytics: Pick<AnalyticsService, 'recordUpgradePurchase' | 'deliverSoon'>;
  /** Payment starts per user (each may create a payment at the provider). */
  startLimit: RateLimiter;
  log: FastifyBaseLogger;
  now?: () => Date;
}

/**
 * §7 POST /stripe/payment-intents: `billing` is the form's (name, address for the invoice); a request exactly as §7
 * lists it has none, and its billing country and business fields come from `metadata` (issue 19).
 */
export type { Payer, PaymentMetadata } from './order-billing';

export interface StartPaymentInput {
  price_id: string;
  theme_type: Tier;
  key: string;
  billing?: BillingInput;
  metadata?: PaymentMetadata;
}

/** A credit pack to pay for (POST /credits/checkout/…): the pack, its price id as the browser saw it, billing. */
export interface StartPackPaymentInput {
  pack_id: number;
  price_id: string;
  billing: BillingInput;
}

/** What a settled payment changed: the order as it is now, and the key when an upgrade was applied just now. */
export interface Settlement {
  order: repo.OrderRow;
  key: Key | null;
}

/**
 * Card payments for upgrades and credit packs (ADR 023): quote → start → settle. Amounts come from the catalogue or the
 * pack and the billing country (and a VIES-valid VAT ID), never from the browser. A payment is settled by re-reading it
 * from the provider — from a webhook or from the browser's sync after confirmation, through the same `settle` — in one
 * short transaction: the order completes with a conditional update, the upgrade is applied (or the order flagged) or
 * the pack's credits are added, the receipt goes to the outbox. No network call runs inside a transaction.
 */
export function createPaymentsService(deps: PaymentsServiceDeps) {
  const { db, provider, keys, upgrades, credits, billing, outbox, analytics, log } = deps;
  const now = deps.now ?? (() => new Date());
  const claims = createOrderClaims({ db, keys });
  const captures = createCaptureFlow({
    db,
    claims,
    settle: (payment, providerName) => process('payment_succeeded', payment, undefined, providerName),
    log,
  });
  const { claimAndCapture, captureClaimed, awaitCapture } = captures;
  const disputes = createOrderDisputes({
    upgrades,
    credits,
    invoices: deps.invoices,
    audit: deps.audit,
    toPaidOrder,
    log,
  });

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

  /**
   * An upgrade's quote: the caller's key, the path to `theme_type`, its catalogue price (the browser's must match).
   * Without a billing object (§7's own request) the payer's name and email and the metadata's country and business
   * fields bill it.
   */
  async function quoteFor(payer: Payer, input: StartPaymentInput): Promise<Quote> {
    const userId = payer.id;
    const key = await keys.requireOwnedKey(userId, input.key);
    const path = findUpgradePath(key.tier, input.theme_type);
    if (!path) {
      throw badRequest(`A ${key.tier} license cannot be upgraded to ${input.theme_type}.`, 'invalid_upgrade_path');
    }
    const price = (await upgrades.prices()).find((entry) => entry.path === path);
    if (!price?.providerPriceId) throw badRequest(CARD_PAYMENT_MESSAGES.noPriceId(input.theme_type), 'no_price_id');
    if (input.price_id !== price.providerPriceId) throw badRequest(PRICE_MISMATCH, 'price_mismatch');
    return {
      kind: 'upgrade',
      key,
      path,
      price,
      priceId: price.providerPriceId,
      ...(await taxed(price.amountCents, input.billing ?? billingFromMetadata(payer, input.metadata))),
    };
  }

  /** A credit pack's quote: team members only, the pack on sale, its price (the browser's must match). */
  async function quotePackFor(buyer: Buyer, input: StartPackPaymentInput): Promise<Quote> {
    const pack = await deps.creditPacks.packForCheckout(buyer, input.pack_id);
    if (!pack.providerPriceId) throw badRequest(PACK_NO_PRICE_ID, 'no_price_id');
    if (input.price_id !== pack.providerPriceId) throw badRequest(PACK_PRICE_MISMATCH, 'price_mismatch');
    return {
      kind: 'credit_pack',
      pack,
      priceId: pack.providerPriceId,
      ...(await taxed(pack.amountCents, input.billing)),
    };
  }

  /** The billing snapshot and the VAT on `amountCents` (VIES for a business VAT ID): one rule for every kind. */
  async function taxed(amountCents: number, input: BillingInput) {
    const snapshot = billingSnapshot(input);
    if (!billing.isCountry(snapshot.address.country)) throw badRequest(BILLING_MESSAGES.country, 'invalid_country');
    if (snapshot.is_business && !snapshot.company_name) {
      throw badRequest(BILLING_MESSAGES.companyName, 'company_name_required');
    }
    // A network call (VIES, cached for a day), before any transaction.
    const verified = snapshot.is_business
      ? await billing.verifiedVatIdFor(input.vat_id, snapshot.address.country)
      : null;
    // The rate in force today, which the order keeps (ADR 036).
    const vat = await billing.vatRates.vatFor({
      amountCents,
      country: snapshot.address.country,
      isBusiness: snapshot.is_business,
      vatId: verified?.vatNumber ?? null,
    });
    return { snapshot, verified, vat };
  }

  function orderValues(userId: number, quote: Quote, providerName: string = provider.name): repo.NewOrder {
    const { snapshot, verified, vat } = quote;
    const what: Partial<repo.NewOrder> =
      quote.kind === 'upgrade'
        ? {
            kind: 'upgrade',
            licenseKeyId: quote.key.id,
            licenseKey: quote.key.apiKey,
            path: quote.path,
            fromTier: quote.price.from,
            toTier: quote.price.to,
          }
        : { kind: 'credit_pack', creditPackId: quote.pack.id, credits: quote.pack.credits };
    return {
      userId,
      ...what,
      priceId: quote.priceId,
      currency: 'usd',
      baseAmountCents: vat.baseCents,
      vatAmountCents: vat.vatCents,
      totalAmountCents: vat.totalCents,
      vatRateBp: vat.rateBp,
      reverseCharge: vat.reverseCharge,
      billing: snapshot,
      ...vatEvidence(vat.reverseCharge ? verified : null),
      provider: providerName,
    };
  }

  /**
   * Settles a payment as the provider reports it, inside `tx`: a success completes its order once and applies the
   * upgrade; a decline is recorded; anything that does not match the order is flagged for a person, never applied.
   * `providerName` is whoever took the money: the card provider, or the wallet (PayPal) with its order as `payment`.
   */
  async function settle(
    payment: ProviderPayment,
    tx: DbOrTx,
    providerName: string = provider.name,
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

  /**
   * A full refund: the order becomes refunded; the tier goes back when nothing changed since, or a credit pack's credits
   * are clawed back (what was already spent becomes owed; ADR 023).
   */
  async function refund(payment: ProviderPayment, tx: DbOrTx, providerName: string = provider.name): Promise<void> {
    const order = await repo.findOrderByPayment(tx, providerName, payment.ref);
    if (!order) return;
    if (payment.refundedCents < order.totalAmountCents) {
      log.info({ orderId: order.id, refundedCents: payment.refundedCents }, 'partial refund: the upgrade stays');
      return;
    }
    const refunded = await repo.refundOrder(tx, order.id, now());
    if (!refunded) return;
    // Only a delivered order has something to take back ('needs_refund' and 'review' never delivered).
    const delivered = order.status === 'completed' || order.status === 'disputed';
    const paid = repo.kinded(order);
    if (paid.kind === 'upgrade') {
      let tierReverted: boolean | null = null;
      if (delivered) {
        const reverted = await upgrades.revertPaidUpgrade(toPaidOrder(paid), tx);
        // A record refunded already (a dispute's withdrawal took the upgrade back): nothing left to revert.
        tierReverted = reverted.recordRefunded ? reverted.tierReverted : null;
        if (tierReverted === false)
          log.warn({ orderId: order.id }, 'refunded; the key changed since, so its tier stays');
      }
      await deps.invoices.orderRefunded(tx, refunded, { kind: 'upgrade', tierReverted });
    } else {
      const clawedBack = delivered
        ? await credits.clawback(tx, {
            userId: paid.userId,
            amount: paid.credits,
            sourceRef: `order:${paid.id}:refund`,
            note: `Order ${paid.id} was refunded`,
          })
        : null;
      await deps.invoices.orderRefunded(tx, refunded, {
        kind: 'credit_pack',
        credits: delivered ? paid.credits : null,
        owedAfter: clawedBack ? clawedBack.owed : null,
      });
    }
    await outbox.enqueue(tx, refundEmail(order));
  }

  /** Applies a payment as re-read from the provider, for an event or a sync, in one transaction; emails after. */
  async function process(
    kind: 'payment_succeeded' | 'payment_failed' | 'refunded',
    payment: ProviderPayment,
    event?: Pick<ProviderEvent, 'id' | 'type'>,
    providerName: string = provider.name,
  ) {
    // The invoice's euro reference rate is fetched before the transaction (no network call inside it; ADR 036).
    const eurRate =
      kind === 'payment_succeeded' && payment.status === 'succeeded'
        ? await deps.invoices.rateForSettlement(payment.currency)
        : null;
    const result = await db.transaction(async (tx) => {
      if (event && !(await repo.recordEvent(tx, providerName, event.id, event.type))) return 'duplicate' as const;
      if (kind === 'refunded') {
        await refund(payment, tx, providerName);
        return null;
      }
      return settle(payment, tx, providerName, eurRate);
    });
    void outbox.flush();
    analytics.deliverSoon();
    return result;
  }

  /**
   * A dispute event: the dispute as re-read from the provider is applied to the order of `paymentRef` (ADR 035), in
   * one transaction with the event's dedupe row.
   */
  async function processDispute(
    paymentRef: string,
    dispute: DisputeReport,
    event: Pick<ProviderEvent, 'id' | 'type'>,
    providerName: string = provider.name,
  ) {
    return db.transaction(async (tx) => {
      if (!(await repo.recordEvent(tx, providerName, event.id, event.type))) return 'duplicate' as const;
      const order = await repo.findOrderByPayment(tx, providerName, paymentRef);
      if (!order) {
        log.warn({ paymentRef, disputeRef: dispute.ref }, 'a dispute of a payment without an order');
        return null;
      }
      return disputes.apply(tx, order.id, dispute, event.type);
    });
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
    const settled = await process('payment_succeeded', payment);
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

  return {
    publishableKey: () => provider.publishableKey,

    /** What the wallet (modules/payments/wallet.service) shares with the card path: one quote, order and fulfilment. */
    core: {
      quoteFor,
      quotePackFor,
      orderValues,
      openOrder,
      process,
      processDispute,
      claimAndCapture,
      captureClaimed,
      awaitCapture,
      currentKey,
    },

    /**
     * A token redemption changed a key's tier (inside its transaction; ADR 035): refused while a payment of the key is
     * being captured, the key's pending order voided. Answers what to run once that transaction committed.
     */
    async keyTierChanged(tx: DbOrTx, keyId: number, tier: Tier): Promise<() => Promise<void>> {
      const voided = await claims.tierChanged(tx, keyId, tier);
      return () => releaseOrders(voided);
    },

    /** §7 POST /stripe/payment-intents: the pending upgrade order of the key and its payment (`startOrder`). */
    async start(payer: Payer, input: StartPaymentInput): Promise<StartedPayment> {
      await deps.startLimit.hit(`payment-start:${payer.id}`);
      return startOrder(orderValues(payer.id, await quoteFor(payer, input)));
    },

    /** POST /credits/checkout/payment-intents: the same, for a credit pack (team members only). */
    async startPack(buyer: Buyer, input: StartPackPaymentInput): Promise<StartedPayment> {
      await deps.startLimit.hit(`payment-start:${buyer.id}`);
      return startOrder(orderValues(buyer.id, await quotePackFor(buyer, input)));
    },

    /**
     * After the browser confirmed: re-read the caller's payment; an authorized card is captured (through a claim: the
     * upgrade must still apply), a paid one settled (the webhook's code). An order that will never be charged
     * (replaced, cancelled, no longer applicable, expired) answers 409 with its reason.
     */
    async sync(userId: number, paymentRef: string): Promise<Settlement> {
      const order = await repo.findOrderByPayment(db, provider.name, paymentRef);
      if (!order || order.userId !== userId) throw notFound(PAYMENT_NOT_FOUND, 'payment_not_found');
      const payment = await atProvider(() => provider.retrievePayment(paymentRef));
      if (!payment) throw notFound(PAYMENT_NOT_FOUND, 'payment_not_found');
      const settled = await applyCardPayment(order, payment);
      if (repo.CLOSED_UNPAID.includes(settled.order.status)) {
        if (payment.status !== 'succeeded' && payment.status !== 'canceled') await cancelQuietly(paymentRef);
        throw orderClosed(settled.order);
      }
      return {
        order: settled.order,
        key: settled.key ?? (settled.order.licenseKey ? await currentKey(userId, settled.order.licenseKey) : null),
      };
    },

    /**
     * The sandbox's confirmation (standing in for Stripe.js): the card authorizes the caller's payment, or the
     * confirmation is refused with why — a declined card (402), or a payment that was cancelled or replaced (409, never
     * `succeeded`).
     */
    async confirmSandbox(
      userId: number,
      paymentRef: string,
      confirm: () => Promise<{ result: string; code?: string; message?: string }>,
    ): Promise<void> {
      const order = await repo.findOrderByPayment(db, provider.name, paymentRef);
      if (!order || order.userId !== userId) throw notFound(PAYMENT_NOT_FOUND, 'payment_not_found');
      const confirmed = await confirm();
      if (confirmed.result === 'declined') throw new AppError(402, confirmed.message!, confirmed.code);
      if (confirmed.result === 'authorized') return;
      const current = (await repo.findOrder(db, order.id)) ?? order;
      if (repo.CLOSED_UNPAID.includes(current.status)) throw orderClosed(current);
      if (confirmed.result === 'not_found') throw notFound(PAYMENT_NOT_FOUND, 'payment_not_found');
      // Confirmed before (authorized or paid already) or cancelled at the provider.
      const payment = await atProvider(() => provider.retrievePayment(paymentRef));
      if (payment?.status === 'canceled') throw conflict(ORDER_MESSAGES.paymentCancelled, 'payment_canceled');
      throw conflict('This payment was already confirmed.', 'already_confirmed');
    },

    /** The sweeper's look at an abandoned card order: an authorized card is captured (as the webhook would have). */
    async resumeCardOrder(order: repo.OrderRow): Promise<'captured' | 'open'> {
      if (!order.providerPaymentId || order.provider !== provider.name) return 'open';
      const payment = await provider.retrievePayment(order.providerPaymentId);
      if (payment?.status !== 'requires_capture' && payment?.status !== 'succeeded') return 'open';
      await applyCardPayment(order, payment).catch((error: unknown) => {
        log.info({ err: error, orderId: order.id }, 'an abandoned authorized payment was not captured');
      });
      return 'captured';
    },

    /** The sweeper resumes a card capture whose process died after its claim (the key is still held). */
    async resumeCardCapture(order: repo.OrderRow): Promise<void> {
      if (!order.providerPaymentId || order.provider !== provider.name) return;
      const attempt = cardAttempt(order.providerPaymentId);
      const payment = await provider.retrievePayment(order.providerPaymentId);
      if (payment?.status === 'succeeded') {
        await process('payment_succeeded', payment);
        return;
      }
      await captureClaimed(order, attempt);
    },

    /** The sweeper let an order expire: its card payment is released. */
    releaseOrders,

    /**
     * §7 webhook: verified on the raw body, deduplicated on the event id, the payment re-read from the provider and
     * settled. A replay, or a concurrent delivery of the same event, changes nothing.
     */
    async handleWebhook(rawBody: Buffer, signature: string | undefined): Promise<{ duplicate: boolean }> {
      let event: ProviderEvent;
      try {
        event = provider.verifyWebhook(rawBody, signature);
      } catch (error) {
        if (error instanceof WebhookVerificationError) throw badRequest(INVALID_SIGNATURE, 'invalid_signature');
        throw error;
      }
      if (event.kind === 'ignored' || !event.paymentRef) return { duplicate: false };
      if (await repo.isEventProcessed(db, provider.name, event.id)) return { duplicate: true };
      if (event.kind === 'dispute') {
        const dispute = await atProvider(() => provider.retrieveDispute(event.disputeRef!));
        if (!dispute || dispute.paymentRef !== event.paymentRef) {
          log.warn(
            { eventId: event.id, disputeRef: event.disputeRef },
            'webhook for a dispute the provider does not know',
          );
          return { duplicate: false };
        }
        const result = await processDispute(dispute.paymentRef, dispute, event);
        return { duplicate: result === 'duplicate' };
      }
      const payment = await atProvider(() => provider.retrievePayment(event.paymentRef!));
      if (!payment) {
        log.warn(
          { eventId: event.id, paymentRef: event.paymentRef },
          'webhook for a payment the provider does not know',
        );
        return { duplicate: false };
      }
      if (event.kind === 'payment_authorized') {
        // The card is authorized and nobody synced yet (a closed tab): capture it as the sync would, through a claim.
        // Not deduplicated on the event: the claim decides, and a capture already done is answered as it stands.
        const order = await repo.findOrderByPayment(db, provider.name, payment.ref);
        if (!order) return { duplicate: false };
        try {
          await applyCardPayment(order, payment);
        } catch (error) {
          if (!(error instanceof AppError) || error.statusCode === 502) throw error; // the provider retries
          log.info({ orderId: order.id, code: error.code }, 'an authorized payment was not captured');
        }
        return { duplicate: false };
      }
      const result = await process(event.kind, payment, event);
      return { duplicate: result === 'duplicate' };
    },

    /** The caller's order (for the receipt). */
    async ownedOrder(userId: number, orderId: number): Promise<repo.OrderRow> {
      const order = await repo.findOwnedOrder(db, userId, orderId);
      if (!order) throw notFound('Order not found.', 'order_not_found');
      return order;
    },

    /** The caller's order behind a provider payment (the sandbox's confirmation checks it). */
    async ownedOrderByPayment(userId: number, paymentRef: string): Promise<repo.OrderRow> {
      const order = await repo.findOrderByPayment(db, provider.name, paymentRef);
      if (!order || order.userId !== userId) throw notFound(PAYMENT_NOT_FOUND, 'payment_not_found');
      return order;
    },

    /** A customer's latest 50 orders, card and PayPal, newest first (the staff customer page). */
    async listOrdersOf(userId: number): Promise<StaffCustomerOrder[]> {
      return (await repo.listOrdersOfUser(db, userId, 50)).map((order) => ({
        id: order.id,
        kind: order.kind,
        status: order.status,
        provider: order.provider,
        provider_payment_id: order.providerPaymentId,
        license_key: order.licenseKey,
        from_tier: order.fromTier,
        to_tier: order.toTier,
        credits: order.credits,
        total: order.totalAmountCents,
        currency: order.currency,
        created_at: order.createdAt.toISOString(),
      }));
    },

    toQuote,
  };

  async function cancelQuietly(paymentRef: string) {
    try {
      await provider.cancelPayment(paymentRef);
    } catch (error) {
      log.warn({ err: error, paymentRef }, 'could not cancel a superseded payment');
    }
  }

  async function currentKey(userId: number, apiKey: string): Promise<Key | null> {
    try {
      return (await keys.requireOwnedKey(userId, apiKey)).key;
    } catch {
      return null; // the key left the account meanwhile
    }
  }
}
export type PaymentsService = ReturnType<typeof createPaymentsService>;
export type PaymentCore = PaymentsService['core'];

/** What an order is for, priced: an upgrade of a key or a credit pack, with billing and VAT. */
export type Quote = (
  | {
      kind: 'upgrade';
      key: Awaited<ReturnType<KeysService['requireOwnedKey']>>;
      path: UpgradePath;
      price: UpgradePrice;
    }
  | { kind: 'credit_pack'; pack: CreditPackRow }
) & {
  priceId: string;
  snapshot: BillingSnapshot;
  verified: VerifiedVatId | null;
  vat: VatCalculation;
};

export interface StartedPayment {
  paymentRef: string;
  clientSecret: string;
  order: repo.OrderRow;
}

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

/** Why a payment is not the one its order priced (amount, currency, our order id), or null when it is. */
function paymentMismatch(payment: ProviderPayment, order: repo.OrderRow): string | null {
  if (
    payment.amountCents === order.totalAmountCents &&
    payment.currency === order.currency &&
    payment.metadata.order_id === String(order.id)
  ) {
    return null;
  }
  return `The payment (${payment.amountCents} ${payment.currency}, order ${payment.metadata.order_id ?? '?'}) does not match order ${order.id} (${order.totalAmountCents} ${order.currency}).`;
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

function toQuote(order: repo.OrderRow): OrderQuote {
  return {
    id: order.id,
    kind: order.kind,
    status: order.status,
    from: order.fromTier,
    to: order.toTier,
    credits: order.credits,
    currency: 'usd',
    base_amount: order.baseAmountCents,
    vat_amount: order.vatAmountCents,
    total_amount: order.totalAmountCents,
    vat_rate: order.vatRateBp / 100,
    reverse_charge: order.reverseCharge,
    last_payment_error: order.lastPaymentError,
  };
}
