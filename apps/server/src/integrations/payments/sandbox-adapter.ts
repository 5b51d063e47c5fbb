import { randomBytes } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import type { Db, DbOrTx } from '../../db/client';
import type { Jobs } from '../../modules/jobs/jobs.service';
import { sandboxPayments, type SandboxDispute } from '../../db/schema';
import {
  type CreatePaymentInput,
  PaymentProviderError,
  type PaymentProvider,
  type ProviderPayment,
  type ProviderPaymentStatus,
  type RefundPaymentInput,
} from './port';
import { createSandboxEventDelivery, type SandboxRetry } from './sandbox-event-delivery';
import { signStripePayload, verifyStripeWebhook } from './stripe-webhook';

/** What a sandbox test card does (packages/shared's `sandboxCardOutcome` decides it from the card number). */
export type SandboxCardOutcome = { outcome: 'succeeded' } | { outcome: 'declined'; code: string; message: string };

export type SandboxConfirmResult =
  /** The card was authorized (manual capture, like Keyport's Stripe payments): Keyport captures it. */
  | { result: 'authorized'; payment: ProviderPayment }
  /** The payment waits for another card, like a Stripe PaymentIntent after a decline. */
  | { result: 'declined'; code: string; message: string; payment: ProviderPayment }
  | { result: 'not_found' }
  /** Already authorized, succeeded or canceled: nothing was changed and no event was sent. */
  | { result: 'not_confirmable'; payment: ProviderPayment };

export interface SandboxPaymentProviderOptions {
  db: Db;
  /** Signs the sandbox's events (Stripe's scheme) and verifies them on the webhook route. */
  webhookSecret: string;
  /**
   * Hands a signed event to the portal's webhook route (`POST /stripe/webhook`, the route Stripe's events take).
   * A 2xx status is a delivery; another status or a throw is retried.
   */
  deliver: (rawBody: string, signatureHeader: string) => Promise<{ statusCode: number }>;
  /** The job engine: each event is a durable `sandbox.payment-event` job, enqueued with the change it announces. */
  jobs: Pick<Jobs, 'register' | 'enqueue' | 'nudge' | 'runUntilIdle'>;
  /** How a failed delivery is retried (Stripe retries too, for days; the sandbox for minutes). */
  retry?: SandboxRetry;
}

export interface SandboxPaymentProvider extends PaymentProvider {
  readonly name: 'sandbox';
  /**
   * Confirms a payment with a test card's outcome, then sends the signed event (after the update committed): an
   * accepted card is authorized (`payment_intent.amount_capturable_updated`), a declined one stays open.
   */
  confirmPayment(ref: string, outcome: SandboxCardOutcome): Promise<SandboxConfirmResult>;
  /**
   * Refunds part (`cents`, what a test or the provider's dashboard does) or what remains (the port's call) of a
   * succeeded payment, then sends `charge.refunded`. A full refund of a payment refunded in full already returns it
   * unchanged and sends nothing (the idempotent retry of the port's call).
   */
  refundPayment(ref: string, amount: number | RefundPaymentInput): Promise<ProviderPayment>;
  /**
   * The card holder disputes a succeeded payment with their bank: sends `charge.dispute.created`, and
   * `charge.dispute.funds_withdrawn` when the amount is taken from the seller at once (Stripe's usual case, the
   * default). Answers the dispute's id.
   */
  disputePayment(ref: string, options?: { reason?: string; fundsWithdrawn?: boolean }): Promise<string>;
  /** The bank decides the payment's dispute: sends `charge.dispute.closed` (and `funds_reinstated` when won). */
  closeDispute(ref: string, outcome: 'won' | 'lost'): Promise<void>;
  /** Delivers the events due now (and retries due within seconds); resolves when none is in flight (tests; a drain). */
  idle(): Promise<void>;
}

export const SANDBOX_PUBLISHABLE_KEY = 'pk_sandbox_keyport';
export const SANDBOX_PAYMENT_EVENT = 'sandbox.payment-event';

type Row = typeof sandboxPayments.$inferSelect;

/**
 * The offline stand-in for Stripe, and the default: payments live in `sandbox_payments` (its own table, the way
 * Stripe keeps its own), ids look like Stripe's (`pi_sandbox_…`, `pi_…_secret_…`), a card is "confirmed" through the
 * portal's `POST /sandbox/stripe/confirm`, and every change is announced with a Stripe-shaped event signed exactly as
 * Stripe signs (`t=…,v1=HMAC-SHA256`) and delivered to the portal's own webhook route. So fulfilment runs the same
 * code, with the same checks, whichever provider took the money.
 */
export function createSandboxPaymentProvider(options: SandboxPaymentProviderOptions): SandboxPaymentProvider {
  const { db, webhookSecret, deliver } = options;
  const events = createSandboxEventDelivery({
    jobs: options.jobs,
    kind: SANDBOX_PAYMENT_EVENT,
    // Signed again for each attempt, as the provider does: the timestamp is the attempt's.
    attempt: (body) => deliver(body, signStripePayload(body, webhookSecret, nowSeconds())),
    retry: options.retry,
    what: 'sandbox payment event',
  });

  /**
   * Queues an event in the transaction of the change it announces (call `events.nudge()` after the commit): the
   * caller never waits for the webhook (Stripe does not either), and the event outlives this process.
   */
  async function emit(tx: DbOrTx, type: string, object: Record<string, unknown>): Promise<void> {
    const event = {
      id: `evt_sandbox_${randomId(24)}`,
      object: 'event',
      api_version: null,
      created: nowSeconds(),
      livemode: false,
      pending_webhooks: 1,
      request: { id: null, idempotency_key: null },
      type,
      data: { object },
    };
    await events.send(tx, event, JSON.stringify(event));
  }

  async function findPayment(ref: string): Promise<Row | undefined> {
    const [row] = await db.select().from(sandboxPayments).where(eq(sandboxPayments.id, ref));
    return row;
  }

  return {
    name: 'sandbox',
    publishableKey: SANDBOX_PUBLISHABLE_KEY,

    async createPayment(input: CreatePaymentInput) {
      if (!Number.isInteger(input.amountCents) || input.amountCents < 50) {
        throw new PaymentProviderError('Amount must be at least $0.50 usd'); // Stripe's minimum charge
      }
      const id = `pi_sandbox_${randomId(24)}`;
      // One conditional insert: the unique idempotency key decides, never a read-then-write.
      const [created] = await db
        .insert(sandboxPayments)
        .values({
          id,
          clientSecret: `${id}_secret_${randomId(24)}`,
          amountCents: input.amountCents,
          currency: input.currency,
          status: 'requires_payment' satisfies ProviderPaymentStatus,
          description: input.description,
          metadata: input.metadata,
          receiptEmail: input.receiptEmail,
          idempotencyKey: input.idempotencyKey,
        })
        .onConflictDoNothing({ target: sandboxPayments.idempotencyKey })
        .returning();
      if (created) return toProviderPayment(created);
      const [earlier] = await db
        .select()
        .from(sandboxPayments)
        .where(eq(sandboxPayments.idempotencyKey, input.idempotencyKey));
      if (!earlier) throw new PaymentProviderError('The sandbox lost an idempotent payment');
      if (!sameRequest(earlier, input)) {
        // What Stripe answers too: a key is bound to the parameters it was first used with.
        throw new PaymentProviderError(
          'Keys for idempotent requests can only be used with the same parameters they were first used with',
        );
      }
      return toProviderPayment(earlier);
    },

    async retrievePayment(ref) {
      const row = await findPayment(ref);
      return row ? toProviderPayment(row) : null;
    },

    async cancelPayment(ref) {
      const [canceled] = await db
        .update(sandboxPayments)
        .set({ status: 'canceled', updatedAt: new Date() })
        .where(
          and(
            eq(sandboxPayments.id, ref),
            sql`${sandboxPayments.status} in ('requires_payment', 'requires_capture', 'processing')`,
          ),
        )
        .returning({ id: sandboxPayments.id });
      if (canceled) return;
      const row = await findPayment(ref);
      if (!row) throw new PaymentProviderError(`No such payment: ${ref}`);
      // Already succeeded or canceled: a no-op, like the Stripe adapter.
    },

    async confirmPayment(ref, outcome) {
      const accepted = outcome.outcome === 'succeeded';
      // The change and its event commit together; the event leaves after the commit.
      const row = await db.transaction(async (tx) => {
        const [updated] = await tx
          .update(sandboxPayments)
          .set(
            accepted
              ? { status: 'requires_capture', lastError: null, updatedAt: new Date() }
              : { lastError: outcome.message, updatedAt: new Date() },
          )
          .where(and(eq(sandboxPayments.id, ref), eq(sandboxPayments.status, 'requires_payment')))
          .returning();
        if (updated) {
          await (outcome.outcome === 'succeeded'
            ? emit(tx, 'payment_intent.amount_capturable_updated', paymentIntentObject(updated, null))
            : emit(tx, 'payment_intent.payment_failed', paymentIntentObject(updated, outcome)));
        }
        return updated;
      });
      if (!row) {
        const current = await findPayment(ref);
        return current ? { result: 'not_confirmable', payment: toProviderPayment(current) } : { result: 'not_found' };
      }
      events.nudge();
      if (outcome.outcome === 'succeeded') return { result: 'authorized', payment: toProviderPayment(row) };
      return { result: 'declined', code: outcome.code, message: outcome.message, payment: toProviderPayment(row) };
    },

    async capturePayment(ref) {
      // Only an authorized payment is captured, once: of any number of captures at once, one changes it.
      const row = await db.transaction(async (tx) => {
        const [updated] = await tx
          .update(sandboxPayments)
          .set({ status: 'succeeded', updatedAt: new Date() })
          .where(and(eq(sandboxPayments.id, ref), eq(sandboxPayments.status, 'requires_capture')))
          .returning();
        if (updated) await emit(tx, 'payment_intent.succeeded', paymentIntentObject(updated, null));
        return updated;
      });
      if (row) {
        events.nudge();
        return toProviderPayment(row);
      }
      const current = await findPayment(ref);
      if (!current) throw new PaymentProviderError(`No such payment: ${ref}`);
      return toProviderPayment(current); // canceled, not authorized, or captured already: as it is
    },

    async retrieveDispute(ref) {
      const [row] = await db
        .select()
        .from(sandboxPayments)
        .where(sql`${sandboxPayments.dispute}->>'id' = ${ref}`);
      if (!row?.dispute) return null;
      const { dispute } = row;
      const state = dispute.status === 'open' ? (dispute.fundsWithdrawn ? 'funds_withdrawn' : 'open') : dispute.status;
      return { ref: dispute.id, paymentRef: row.id, state, reason: dispute.reason };
    },

    async refundPayment(ref, amount) {
      let cents: number;
      if (typeof amount === 'number') {
        cents = amount;
      } else {
        const current = await findPayment(ref);
        if (!current) throw new PaymentProviderError(`No such payment: ${ref}`);
        if (current.status === 'succeeded' && current.refundedCents === current.amountCents) {
          return toProviderPayment(current);
        }
        // What remains now; the conditional update below still refuses to refund more than was paid.
        cents = current.amountCents - current.refundedCents;
      }
      if (!Number.isInteger(cents) || cents <= 0) throw new PaymentProviderError('Refund amount must be positive');
      const row = await db.transaction(async (tx) => {
        const [updated] = await tx
          .update(sandboxPayments)
          .set({ refundedCents: sql`${sandboxPayments.refundedCents} + ${cents}`, updatedAt: new Date() })
          .where(
            and(
              eq(sandboxPayments.id, ref),
              eq(sandboxPayments.status, 'succeeded'),
              sql`${sandboxPayments.refundedCents} + ${cents} <= ${sandboxPayments.amountCents}`,
            ),
          )
          .returning();
        if (updated) await emit(tx, 'charge.refunded', chargeObject(updated));
        return updated;
      });
      if (!row) {
        const current = await findPayment(ref);
        // A full refund that lost to another one for the same payment: refunded in full, as asked.
        if (typeof amount !== 'number' && current && current.refundedCents === current.amountCents) {
          return toProviderPayment(current);
        }
        throw new PaymentProviderError(
          !current
            ? `No such payment: ${ref}`
            : current.status !== 'succeeded'
              ? 'This payment cannot be refunded: it has not succeeded'
              : 'Refund amount is greater than what remains to refund',
        );
      }
      events.nudge();
      return toProviderPayment(row);
    },

    async disputePayment(ref, options = {}) {
      const { reason = 'fraudulent', fundsWithdrawn = true } = options;
      const dispute: SandboxDispute = { id: `dp_sandbox_${randomId(24)}`, status: 'open', fundsWithdrawn, reason };
      const row = await db.transaction(async (tx) => {
        const [updated] = await tx
          .update(sandboxPayments)
          .set({ dispute, updatedAt: new Date() })
          .where(and(eq(sandboxPayments.id, ref), eq(sandboxPayments.status, 'succeeded')))
          .returning();
        if (updated) {
          await emit(tx, 'charge.dispute.created', disputeObject(updated, dispute));
          if (fundsWithdrawn) await emit(tx, 'charge.dispute.funds_withdrawn', disputeObject(updated, dispute));
        }
        return updated;
      });
      if (!row) {
        const current = await findPayment(ref);
        throw new PaymentProviderError(!current ? `No such payment: ${ref}` : 'This payment has no charge to dispute');
      }
      events.nudge();
      return dispute.id;
    },

    async closeDispute(ref, outcome) {
      const current = await findPayment(ref);
      if (!current?.dispute || current.dispute.status !== 'open') {
        throw new PaymentProviderError('This payment has no open dispute');
      }
      const reinstated = outcome === 'won' && current.dispute.fundsWithdrawn;
      const dispute: SandboxDispute = {
        ...current.dispute,
        status: outcome,
        fundsWithdrawn: current.dispute.fundsWithdrawn && !reinstated,
      };
      const row = await db.transaction(async (tx) => {
        const [updated] = await tx
          .update(sandboxPayments)
          .set({ dispute, updatedAt: new Date() })
          .where(and(eq(sandboxPayments.id, ref), sql`${sandboxPayments.dispute}->>'status' = 'open'`))
          .returning();
        if (updated) {
          if (reinstated) await emit(tx, 'charge.dispute.funds_reinstated', disputeObject(updated, dispute, true));
          await emit(tx, 'charge.dispute.closed', disputeObject(updated, dispute, reinstated));
        }
        return updated;
      });
      if (!row) throw new PaymentProviderError('This payment has no open dispute');
      events.nudge();
    },

    idle: events.idle,

    verifyWebhook(rawBody, signatureHeader) {
      return verifyStripeWebhook(rawBody, signatureHeader, webhookSecret);
    },
  };
}

function toProviderPayment(row: Row): ProviderPayment {
  return {
    ref: row.id,
    status: row.status as ProviderPaymentStatus,
    amountCents: row.amountCents,
    currency: row.currency,
    metadata: { ...row.metadata },
    refundedCents: row.refundedCents,
    clientSecret: row.clientSecret,
    lastError: row.lastError,
  };
}

function sameRequest(row: Row, input: CreatePaymentInput): boolean {
  return (
    row.amountCents === input.amountCents &&
    row.currency === input.currency &&
    row.description === input.description &&
    row.receiptEmail === input.receiptEmail &&
    canonical(row.metadata) === canonical(input.metadata)
  );
}

/** jsonb does not keep key order: compare metadata by sorted entries. */
function canonical(metadata: Record<string, string>): string {
  return JSON.stringify(Object.entries(metadata).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

/** The payment as a Stripe PaymentIntent object (without its client secret: events are not for browsers). */
function paymentIntentObject(row: Row, decline: { code: string; message: string } | null): Record<string, unknown> {
  return {
    id: row.id,
    object: 'payment_intent',
    amount: row.amountCents,
    amount_received: row.status === 'succeeded' ? row.amountCents : 0,
    amount_capturable: row.status === 'requires_capture' ? row.amountCents : 0,
    capture_method: 'manual',
    currency: row.currency,
    status: row.status === 'requires_payment' ? 'requires_payment_method' : row.status,
    description: row.description,
    metadata: row.metadata,
    receipt_email: row.receiptEmail,
    payment_method_types: ['card'],
    latest_charge: row.status === 'succeeded' || row.status === 'requires_capture' ? chargeIdOf(row.id) : null,
    last_payment_error: decline ? { type: 'card_error', code: decline.code, message: decline.message } : null,
    created: Math.floor(row.createdAt.getTime() / 1000),
    livemode: false,
  };
}

function chargeObject(row: Row): Record<string, unknown> {
  return {
    id: chargeIdOf(row.id),
    object: 'charge',
    amount: row.amountCents,
    amount_refunded: row.refundedCents,
    refunded: row.refundedCents === row.amountCents,
    currency: row.currency,
    payment_intent: row.id,
    status: 'succeeded',
    livemode: false,
  };
}

/**
 * The dispute as a Stripe Dispute object. Its balance transactions say whether the seller's funds were withdrawn (and
 * given back when a won dispute reinstated them).
 */
function disputeObject(row: Row, dispute: SandboxDispute, reinstated = false): Record<string, unknown> {
  const withdrawal = { object: 'balance_transaction', amount: -row.amountCents, type: 'adjustment' };
  return {
    id: dispute.id,
    object: 'dispute',
    amount: row.amountCents,
    currency: row.currency,
    charge: chargeIdOf(row.id),
    payment_intent: row.id,
    reason: dispute.reason,
    status: dispute.status === 'open' ? 'needs_response' : dispute.status,
    balance_transactions: dispute.fundsWithdrawn
      ? [withdrawal]
      : reinstated
        ? [withdrawal, { ...withdrawal, amount: row.amountCents }]
        : [],
    livemode: false,
  };
}

const chargeIdOf = (paymentId: string) => paymentId.replace(/^pi_/, 'ch_');

const nowSeconds = () => Math.floor(Date.now() / 1000);

function randomId(length: number): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
  // 62 letters: the modulo bias is irrelevant for ids that only need to be unique and unguessable enough.
  return Array.from(randomBytes(length), (byte) => alphabet[byte % alphabet.length]).join('');
}
