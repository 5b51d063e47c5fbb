import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import type { Db, DbOrTx } from '../../db/client';
import type { Jobs } from '../../modules/jobs/jobs.service';
import { sandboxPaypalOrders, type SandboxDispute } from '../../db/schema';
import { createSandboxEventDelivery, type SandboxRetry } from '../payments/sandbox-event-delivery';
import {
  centsToDecimal,
  type CreatePaypalOrderInput,
  headerValue,
  toPaypalDispute,
  toPaypalEvent,
  PaypalCaptureError,
  type PaypalCaptureStatus,
  type PaypalOrder,
  type PaypalOrderStatus,
  PaypalProviderError,
  type PaypalProvider,
  PaypalWebhookError,
  type WebhookHeaders,
} from './port';

/** How old a signed delivery may be (the card sandbox's tolerance too). */
export const SANDBOX_WEBHOOK_TOLERANCE_SECONDS = 300;
/** The PayerID the sandbox's approval page hands back, like PayPal's redirect does. */
export const SANDBOX_PAYER_ID = 'SANDBOXPAYER';
/** The portal's own approval page (served by modules/payments while the wallet runs in the sandbox). */
export const SANDBOX_APPROVAL_PATH = '/sandbox/paypal/checkout';

const SANDBOX_AUTH_ALGO = 'HMAC-SHA256';
export const SANDBOX_WALLET_EVENT = 'sandbox.wallet-event';

export interface SandboxPaypalOptions {
  db: Db;
  /** Signs the sandbox's events and verifies them on the webhook route. */
  webhookSecret: string;
  /** Hands a signed event to the portal's webhook route (`POST /paypal/webhook`); a non-2xx is retried. */
  deliver: (rawBody: string, headers: Record<string, string>) => Promise<{ statusCode: number }>;
  /** The job engine: each event is a durable `sandbox.wallet-event` job, enqueued with the change it announces. */
  jobs: Pick<Jobs, 'register' | 'enqueue' | 'nudge' | 'runUntilIdle'>;
  retry?: SandboxRetry;
}

export type SandboxApproval =
  | { result: 'approved' | 'already'; order: PaypalOrder; returnUrl: string; cancelUrl: string }
  /** The payer cancelled this checkout (or it was voided): it can never be approved again. */
  | { result: 'cancelled'; order: PaypalOrder }
  | { result: 'not_found' };

export interface SandboxPaypalProvider extends PaypalProvider {
  readonly name: 'paypal_sandbox';
  /**
   * The payer approves on the portal's page: CREATED → APPROVED (already approved or captured: unchanged; a cancelled
   * checkout stays cancelled).
   */
  approve(ref: string): Promise<SandboxApproval>;
  /** The payer cancels on the page: CREATED or APPROVED → VOIDED, for good (its page can never approve it again). */
  cancel(ref: string): Promise<PaypalOrder | null>;
  /** The payer opens a dispute of the capture: sends `CUSTOMER.DISPUTE.CREATED`; answers the dispute's id. */
  disputeCapture(ref: string, reason?: string): Promise<string>;
  /** PayPal decides the dispute: sends `CUSTOMER.DISPUTE.RESOLVED` with the outcome. */
  resolveDispute(ref: string, outcome: 'won' | 'lost'): Promise<void>;
  /** What the approval page shows, with the URLs it returns to. */
  checkout(
    ref: string,
  ): Promise<{ order: PaypalOrder; description: string; returnUrl: string; cancelUrl: string } | null>;
  /** Refunds part or all of the capture, then sends `PAYMENT.CAPTURE.REFUNDED` to the webhook route. */
  refundCapture(ref: string, cents: number): Promise<PaypalOrder>;
  /** Delivers the events due now (and retries due within seconds); resolves when none is in flight (tests; a drain). */
  idle(): Promise<void>;
}

type Row = typeof sandboxPaypalOrders.$inferSelect;

/**
 * The offline stand-in for PayPal, and the default: orders live in `sandbox_paypal_orders` (its own table, the way
 * PayPal keeps its own), ids look like PayPal's, the payer approves on the portal's own page, a capture behaves like
 * PayPal's (only an APPROVED order; a second one is `ORDER_ALREADY_CAPTURED`, i.e. success), and every capture and
 * refund is announced with a PayPal-shaped event, signed by the sandbox and delivered to the portal's own webhook
 * route. So fulfilment runs the same code, with the same checks, as with PayPal.
 */
export function createSandboxPaypalProvider(options: SandboxPaypalOptions): SandboxPaypalProvider {
  const { db, webhookSecret, deliver } = options;
  const events = createSandboxEventDelivery({
    jobs: options.jobs,
    kind: SANDBOX_WALLET_EVENT,
    // Signed again for each attempt, as the provider does: the timestamp is the attempt's.
    attempt: (body) => deliver(body, signSandboxPaypalEvent(body, webhookSecret, new Date())),
    retry: options.retry,
    what: 'sandbox wallet event',
  });

  /** Queues an event in the transaction of the change it announces (call `events.nudge()` after the commit). */
  async function emit(
    tx: DbOrTx,
    eventType: string,
    resourceType: string,
    summary: string,
    resource: Record<string, unknown>,
  ): Promise<void> {
    const event = {
      id: `WH-SANDBOX-${randomId(20)}`,
      event_version: '1.0',
      create_time: new Date().toISOString(),
      resource_type: resourceType,
      resource_version: '2.0',
      event_type: eventType,
      summary,
      resource,
    };
    await events.send(tx, { id: event.id, type: eventType }, JSON.stringify(event));
  }

  async function find(ref: string): Promise<Row | undefined> {
    const [row] = await db.select().from(sandboxPaypalOrders).where(eq(sandboxPaypalOrders.id, ref));
    return row;
  }

  async function refundCapture(ref: string, cents: number): Promise<PaypalOrder> {
    if (!Number.isInteger(cents) || cents <= 0) throw new PaypalProviderError('Refund amount must be positive');
    const row = await db.transaction(async (tx) => {
      const [updated] = await tx
        .update(sandboxPaypalOrders)
        .set({
          refundedCents: sql`${sandboxPaypalOrders.refundedCents} + ${cents}`,
          captureStatus: sql`case when ${sandboxPaypalOrders.refundedCents} + ${cents} >= ${sandboxPaypalOrders.capturedCents} then 'REFUNDED' else 'PARTIALLY_REFUNDED' end`,
          updatedAt: new Date(),
        })
        .where(
          and(
            eq(sandboxPaypalOrders.id, ref),
            eq(sandboxPaypalOrders.status, 'COMPLETED'),
            sql`${sandboxPaypalOrders.refundedCents} + ${cents} <= ${sandboxPaypalOrders.capturedCents}`,
          ),
        )
        .returning();
      if (updated) {
        await emit(
          tx,
          'PAYMENT.CAPTURE.REFUNDED',
          'refund',
          `A $ ${centsToDecimal(cents)} USD capture payment was refunded`,
          {
            id: randomId(17),
            status: 'COMPLETED',
            amount: { currency_code: updated.currency, value: centsToDecimal(cents) },
            custom_id: updated.customId,
            invoice_id: updated.invoiceId,
            supplementary_data: { related_ids: { order_id: updated.id, capture_id: updated.captureId } },
            links: [{ href: `/v2/payments/captures/${updated.captureId}`, rel: 'up', method: 'GET' }],
          },
        );
      }
      return updated;
    });
    if (!row) {
      const current = await find(ref);
      throw new PaypalProviderError(
        !current
          ? `No such order: ${ref}`
          : current.status !== 'COMPLETED'
            ? 'This order cannot be refunded: it was not captured'
            : 'Refund amount is greater than what remains to refund',
      );
    }
    events.nudge();
    return toPaypalOrder(row);
  }

  return {
    name: 'paypal_sandbox',
    clientId: null,

    async createOrder(input: CreatePaypalOrderInput) {
      if (!Number.isInteger(input.amountCents) || input.amountCents < 1) {
        throw new PaypalProviderError('The amount must be a positive number of cents');
      }
      // One conditional insert: the unique request id decides, never a read-then-write.
      const [created] = await db
        .insert(sandboxPaypalOrders)
        .values({
          id: randomId(17),
          requestId: input.requestId,
          status: 'CREATED',
          amountCents: input.amountCents,
          currency: input.currency,
          description: input.description,
          customId: input.customId,
          invoiceId: input.invoiceId,
          returnUrl: input.returnUrl,
          cancelUrl: input.cancelUrl,
        })
        .onConflictDoNothing({ target: sandboxPaypalOrders.requestId })
        .returning();
      if (created) return toPaypalOrder(created);
      const [earlier] = await db
        .select()
        .from(sandboxPaypalOrders)
        .where(eq(sandboxPaypalOrders.requestId, input.requestId));
      if (!earlier) throw new PaypalProviderError('The sandbox lost an idempotent order');
      if (earlier.amountCents !== input.amountCents || earlier.customId !== input.customId) {
        throw new PaypalProviderError('A PayPal-Request-Id was reused with other parameters');
      }
      return toPaypalOrder(earlier);
    },

    async getOrder(ref) {
      const row = await find(ref);
      return row ? toPaypalOrder(row) : null;
    },

    async checkout(ref) {
      const row = await find(ref);
      return row
        ? {
            order: toPaypalOrder(row),
            description: row.description,
            returnUrl: row.returnUrl,
            cancelUrl: row.cancelUrl,
          }
        : null;
    },

    async approve(ref) {
      const [row] = await db
        .update(sandboxPaypalOrders)
        .set({ status: 'APPROVED', updatedAt: new Date() })
        .where(and(eq(sandboxPaypalOrders.id, ref), eq(sandboxPaypalOrders.status, 'CREATED')))
        .returning();
      const current = row ?? (await find(ref));
      if (!current) return { result: 'not_found' };
      if (current.status === 'VOIDED') return { result: 'cancelled', order: toPaypalOrder(current) };
      return {
        result: row ? 'approved' : 'already',
        order: toPaypalOrder(current),
        returnUrl: current.returnUrl,
        cancelUrl: current.cancelUrl,
      };
    },

    async cancel(ref) {
      const [row] = await db
        .update(sandboxPaypalOrders)
        .set({ status: 'VOIDED', updatedAt: new Date() })
        .where(and(eq(sandboxPaypalOrders.id, ref), sql`${sandboxPaypalOrders.status} in ('CREATED', 'APPROVED')`))
        .returning();
      const current = row ?? (await find(ref));
      return current ? toPaypalOrder(current) : null;
    },

    async disputeCapture(ref, reason = 'MERCHANDISE_OR_SERVICE_NOT_AS_DESCRIBED') {
      const dispute: SandboxDispute = { id: `PP-D-${randomId(12)}`, status: 'open', fundsWithdrawn: false, reason };
      const row = await db.transaction(async (tx) => {
        const [updated] = await tx
          .update(sandboxPaypalOrders)
          .set({ dispute, updatedAt: new Date() })
          .where(and(eq(sandboxPaypalOrders.id, ref), eq(sandboxPaypalOrders.status, 'COMPLETED')))
          .returning();
        if (updated) {
          await emit(
            tx,
            'CUSTOMER.DISPUTE.CREATED',
            'dispute',
            'A new dispute opened',
            disputeResource(updated, dispute),
          );
        }
        return updated;
      });
      if (!row) throw new PaypalProviderError('This order has no capture to dispute');
      events.nudge();
      return dispute.id;
    },

    async resolveDispute(ref, outcome) {
      const current = await find(ref);
      if (!current?.dispute || current.dispute.status !== 'open') {
        throw new PaypalProviderError('This order has no open dispute');
      }
      const dispute: SandboxDispute = { ...current.dispute, status: outcome };
      const row = await db.transaction(async (tx) => {
        const [updated] = await tx
          .update(sandboxPaypalOrders)
          .set({ dispute, updatedAt: new Date() })
          .where(and(eq(sandboxPaypalOrders.id, ref), sql`${sandboxPaypalOrders.dispute}->>'status' = 'open'`))
          .returning();
        if (updated) {
          await emit(
            tx,
            'CUSTOMER.DISPUTE.RESOLVED',
            'dispute',
            'A dispute was resolved',
            disputeResource(updated, dispute),
          );
        }
        return updated;
      });
      if (!row) throw new PaypalProviderError('This order has no open dispute');
      events.nudge();
    },

    async getDispute(ref) {
      const [row] = await db
        .select()
        .from(sandboxPaypalOrders)
        .where(sql`${sandboxPaypalOrders.dispute}->>'id' = ${ref}`);
      return row?.dispute ? toPaypalDispute(disputeResource(row, row.dispute)) : null;
    },

    async captureOrder(ref, _requestId) {
      const captureId = randomId(17);
      // The capture and its event commit together; the event leaves after the commit.
      const row = await db.transaction(async (tx) => {
        const [captured] = await tx
          .update(sandboxPaypalOrders)
          .set({
            status: 'COMPLETED',
            captureId,
            captureStatus: 'COMPLETED',
            capturedCents: sql`${sandboxPaypalOrders.amountCents}`,
            updatedAt: new Date(),
          })
          .where(and(eq(sandboxPaypalOrders.id, ref), eq(sandboxPaypalOrders.status, 'APPROVED')))
          .returning();
        if (captured) {
          await emit(
            tx,
            'PAYMENT.CAPTURE.COMPLETED',
            'capture',
            `Payment completed for $ ${centsToDecimal(captured.capturedCents)} USD`,
            captureResource(captured),
          );
        }
        return captured;
      });
      if (row) {
        events.nudge();
        return toPaypalOrder(row);
      }
      const current = await find(ref);
      if (!current) throw new PaypalProviderError(`No such order: ${ref}`);
      // ORDER_ALREADY_CAPTURED: success, the order as it is now.
      if (current.status === 'COMPLETED') return toPaypalOrder(current);
      throw new PaypalCaptureError('ORDER_NOT_APPROVED', 'Payer has not yet approved the Order for payment.');
    },

    refundCapture,

    async refundOrder(ref, _requestId) {
      const current = await find(ref);
      if (!current) throw new PaypalProviderError(`No such order: ${ref}`);
      // Refunded in full already: the retry of the same request, answered with the order and no second event.
      if (current.status === 'COMPLETED' && current.refundedCents === current.capturedCents) {
        return toPaypalOrder(current);
      }
      return refundCapture(ref, current.capturedCents - current.refundedCents);
    },

    idle: events.idle,

    async verifyWebhook(headers, rawBody) {
      return verifySandboxPaypalEvent(headers, rawBody, webhookSecret);
    },
  };
}

/** The transmission headers the sandbox sends: PayPal's names, an HMAC instead of PayPal's certificate signature. */
export function signSandboxPaypalEvent(body: string, secret: string, at: Date): Record<string, string> {
  const transmissionId = randomBytes(16).toString('hex');
  const transmissionTime = at.toISOString();
  return {
    'content-type': 'application/json',
    'paypal-auth-algo': SANDBOX_AUTH_ALGO,
    'paypal-cert-url': 'sandbox',
    'paypal-transmission-id': transmissionId,
    'paypal-transmission-time': transmissionTime,
    'paypal-transmission-sig': signature(transmissionId, transmissionTime, body, secret),
  };
}

/** Verifies the sandbox's signature on the raw bytes, within the tolerance; throws PaypalWebhookError otherwise. */
export function verifySandboxPaypalEvent(headers: WebhookHeaders, rawBody: Buffer, secret: string) {
  const id = headerValue(headers, 'paypal-transmission-id');
  const time = headerValue(headers, 'paypal-transmission-time');
  const sig = headerValue(headers, 'paypal-transmission-sig');
  if (!id || !time || !sig || headerValue(headers, 'paypal-auth-algo') !== SANDBOX_AUTH_ALGO) {
    throw new PaypalWebhookError('Missing PayPal transmission headers');
  }
  const sentAt = Date.parse(time);
  if (!Number.isFinite(sentAt) || Math.abs(Date.now() - sentAt) > SANDBOX_WEBHOOK_TOLERANCE_SECONDS * 1000) {
    throw new PaypalWebhookError('Webhook refused: transmission time outside the tolerance');
  }
  const expected = Buffer.from(signature(id, time, rawBody, secret));
  const given = Buffer.from(sig);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) {
    throw new PaypalWebhookError('Webhook refused: invalid signature');
  }
  let event: unknown;
  try {
    event = JSON.parse(rawBody.toString('utf8'));
  } catch {
    throw new PaypalWebhookError('Webhook refused: the body is not JSON');
  }
  return toPaypalEvent(event);
}

/** HMAC-SHA256 over PayPal's signed string: `<transmission id>|<time>|<hash of the body>`. */
function signature(id: string, time: string, body: string | Buffer, secret: string): string {
  const digest = createHash('sha256').update(body).digest('hex');
  return createHmac('sha256', secret).update(`${id}|${time}|${digest}`).digest('base64');
}

function toPaypalOrder(row: Row): PaypalOrder {
  return {
    ref: row.id,
    status: row.status as PaypalOrderStatus,
    amountCents: row.amountCents,
    currency: row.currency,
    customId: row.customId,
    captureId: row.captureId,
    captureStatus: (row.captureStatus as PaypalCaptureStatus | null) ?? null,
    capturedCents: row.capturedCents,
    refundedCents: row.refundedCents,
    approveUrl: row.status === 'CREATED' ? `${SANDBOX_APPROVAL_PATH}?token=${row.id}` : null,
  };
}

/** A dispute as PayPal's disputes API shows it (the event's resource, and what `getDispute` reads back). */
function disputeResource(row: Row, dispute: SandboxDispute): Record<string, unknown> {
  return {
    dispute_id: dispute.id,
    reason: dispute.reason,
    status: dispute.status === 'open' ? 'WAITING_FOR_SELLER_RESPONSE' : 'RESOLVED',
    dispute_amount: { currency_code: row.currency, value: centsToDecimal(row.capturedCents) },
    disputed_transactions: [
      {
        seller_transaction_id: row.captureId,
        invoice_number: row.invoiceId,
        custom: row.customId,
        gross_amount: { currency_code: row.currency, value: centsToDecimal(row.capturedCents) },
      },
    ],
    ...(dispute.status === 'open'
      ? {}
      : {
          dispute_outcome: {
            outcome_code: dispute.status === 'lost' ? 'RESOLVED_BUYER_FAVOUR' : 'RESOLVED_SELLER_FAVOUR',
          },
        }),
  };
}

function captureResource(row: Row): Record<string, unknown> {
  return {
    id: row.captureId,
    status: row.captureStatus,
    amount: { currency_code: row.currency, value: centsToDecimal(row.capturedCents) },
    final_capture: true,
    custom_id: row.customId,
    invoice_id: row.invoiceId,
    supplementary_data: { related_ids: { order_id: row.id } },
    create_time: row.updatedAt.toISOString(),
  };
}

/** PayPal-style ids: 17 upper-case letters and digits. */
function randomId(length: number): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
  return Array.from(randomBytes(length), (byte) => alphabet[byte % alphabet.length]).join('');
}
