import type { StaffCustomerOrder } from '@keyport/shared/contracts/staff-customers';
import type { FastifyBaseLogger } from 'fastify';
import type { Key } from '@keyport/shared/contracts/keys';
import type { Tier } from '@keyport/shared/domain/tiers';
import type { Db, DbOrTx } from '../../db/client';
import { AppError, badRequest, conflict, notFound } from '../../http/errors';
import type { RateLimiter } from '../../http/rate-limit';
import type { Outbox } from '../../integrations/email/outbox';
import {
  WebhookVerificationError,
  type PaymentProvider,
  type ProviderEvent,
  type ProviderPayment,
} from '../../integrations/payments/port';
import type { AuditService } from '../audit/audit.service';
import type { AnalyticsService } from '../analytics/analytics.service';
import type { BillingService } from '../billing/billing.service';
import type { Buyer, CreditPacksService } from '../credits/credit-packs.service';
import type { CreditsService } from '../credits/credits.service';
import type { InvoicesService } from '../invoices/invoices.service';
import type { KeysService } from '../keys/keys.service';
import type { UpgradesService } from '../upgrades/upgrades.service';
import { createCaptureFlow } from './capture-flow';
import type { Payer } from './order-billing';
import { createOrderClaims } from './order-claims';
import { createOrderDisputes, type DisputeReport } from './order-disputes';
import { ORDER_MESSAGES, orderClosed } from './order-messages';
import { createOrderQuotes, toQuote, type StartPackPaymentInput, type StartPaymentInput } from './order-quote';
import { createOrderRefunds } from './order-refund';
import { createOrderSettlement, toPaidOrder, type Settlement } from './order-settle';
import { createOrderStarts, type StartedPayment } from './order-start';
import * as repo from './payments.repo';

export const PAYMENT_NOT_FOUND = 'Payment not found.';
export const INVALID_SIGNATURE = 'Invalid webhook signature.';
export { PROVIDER_UNAVAILABLE } from './order-messages';
export type { Payer, PaymentMetadata } from './order-billing';
export {
  PACK_NO_PRICE_ID,
  PACK_PRICE_MISMATCH,
  PRICE_MISMATCH,
  type Quote,
  type StartPackPaymentInput,
  type StartPaymentInput,
} from './order-quote';
export { toPaidOrder, type Settlement } from './order-settle';
export { alreadyPaid, describeOrder, paymentInProgress, type StartedPayment } from './order-start';

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
    'orderCompleted' | 'orderRefunded' | 'orderDisputed' | 'orderChargedBack' | 'orderReinstated' | 'rateForSettlement'
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
 * Card payments for upgrades and credit packs (ADR 023): quote → start → settle. Amounts come from the catalogue or the
 * pack and the billing country (and a VIES-valid VAT ID), never from the browser. A payment is settled by re-reading it
 * from the provider — from a webhook or from the browser's sync after confirmation, through the same `settle` — in one
 * short transaction: the order completes with a conditional update, the upgrade is applied (or the order flagged) or
 * the pack's credits are added, the receipt goes to the outbox. No network call runs inside a transaction.
 */
export function createPaymentsService(deps: PaymentsServiceDeps) {
  const { db, provider, keys, log } = deps;
  const now = deps.now ?? (() => new Date());
  // Quote → start → settle, and refund (issue 21: one file each; this one composes them and answers the routes).
  const quotes = createOrderQuotes({ ...deps, providerName: provider.name });
  const { quoteFor, quotePackFor, orderValues } = quotes;
  const refunds = createOrderRefunds({ ...deps, providerName: provider.name, now });
  const settlement = createOrderSettlement({ ...deps, providerName: provider.name, now });
  const claims = createOrderClaims({ db, keys });
  const captures = createCaptureFlow({
    db,
    claims,
    settle: (payment, providerName) => process('payment_succeeded', payment, undefined, providerName),
    log,
  });
  const { claimAndCapture, captureClaimed, awaitCapture } = captures;
  const disputes = createOrderDisputes({
    upgrades: deps.upgrades,
    credits: deps.credits,
    invoices: deps.invoices,
    audit: deps.audit,
    toPaidOrder,
    log,
  });
  const starts = createOrderStarts({
    db,
    provider,
    settlePaid: (payment) => process('payment_succeeded', payment),
    captures,
    log,
  });
  const { atProvider, cardAttempt, applyCardPayment, releaseOrders, openOrder, startOrder, cancelQuietly } = starts;

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
        await refunds.refund(payment, tx, providerName);
        return null;
      }
      return settlement.settle(payment, tx, providerName, eurRate);
    });
    void deps.outbox.flush();
    deps.analytics.deliverSoon();
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
    // A won dispute whose funds were withdrawn issues the invoice again: its euro reference rate is fetched before
    // the transaction (no network call inside it; ADR 036). Missed here (a race), the invoice is completed later.
    const known = dispute.state === 'won' ? await repo.findOrderByPayment(db, providerName, paymentRef) : null;
    const eurRate =
      known?.disputeRef === dispute.ref && known.disputeState === 'funds_withdrawn'
        ? await deps.invoices.rateForSettlement(known.currency)
        : null;
    return db.transaction(async (tx) => {
      if (!(await repo.recordEvent(tx, providerName, event.id, event.type))) return 'duplicate' as const;
      const order = await repo.findOrderByPayment(tx, providerName, paymentRef);
      if (!order) {
        log.warn({ paymentRef, disputeRef: dispute.ref }, 'a dispute of a payment without an order');
        return null;
      }
      return disputes.apply(tx, order.id, dispute, event.type, eurRate);
    });
  }

  return {
    publishableKey: () => provider.publishableKey,

    /** What the wallet (modules/payments/paypal-checkout.service) shares with the card path: one quote, order and fulfilment. */
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
