/**
 * The sandbox payment provider on a real database (PGlite, or PostgreSQL with TEST_DATABASE_URL): Stripe-like ids and
 * idempotency on the unique key, confirmation (an authorization: manual capture) and capture by conditional update,
 * disputes re-readable like Stripe's, and Stripe-signed events delivered after the update committed, retried when the
 * webhook fails.
 */
import { confirmSandboxPayment } from '@keyport/shared/contracts/payments';
import { eq } from 'drizzle-orm';
import Stripe from 'stripe';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Db } from '../src/db/client';
import { sandboxPayments } from '../src/db/schema';
import {
  type CreatePaymentInput,
  PaymentProviderError,
  WebhookVerificationError,
} from '../src/integrations/payments/port';
import {
  createSandboxPaymentProvider,
  SANDBOX_PUBLISHABLE_KEY,
  type SandboxPaymentProvider,
} from '../src/integrations/payments/sandbox-adapter';
import { createJobs, type Jobs } from '../src/modules/jobs/jobs.service';
import { getTestDatabase, resetDatabase } from './helpers/test-app';

const webhookSecret = 'whsec_sandbox_test_0123456789abcdef';
const declined = { outcome: 'declined', code: 'card_declined', message: 'Your card was declined.' } as const;

interface Delivery {
  body: string;
  signature: string;
  statusAtDelivery: string | undefined;
}

let db: Db;
let deliveries: Delivery[];
let logs: { level: string; data: unknown; message: string }[];
/** What the webhook answers next (a status, or a thrown error); 200 once the queue is empty. */
let answers: (number | Error)[];

function createSandbox(secret = webhookSecret): SandboxPaymentProvider {
  const record = (level: string) => (data: unknown, message: string) => logs.push({ level, data, message });
  // Each sandbox with a job engine of its own (its events are delivered when the test awaits `idle()`); the engine
  // logs the deliveries.
  const jobs = createJobs({
    db,
    log: { info: record('info'), warn: record('warn'), error: record('error') } as never,
    pollMs: 3_600_000,
  });
  engines.push(jobs);
  return createSandboxPaymentProvider({
    db,
    webhookSecret: secret,
    jobs,
    retry: { maxAttempts: 4, backoff: { baseMs: 1, maxMs: 1 } },
    async deliver(body, signature) {
      const answer = answers.shift() ?? 200;
      if (answer instanceof Error) throw answer;
      // What the webhook route would see when it re-reads the payment at that moment.
      const id = (JSON.parse(body) as { data: { object: { id: string; payment_intent?: string } } }).data.object;
      const [row] = await db
        .select()
        .from(sandboxPayments)
        .where(eq(sandboxPayments.id, id.payment_intent ?? id.id));
      deliveries.push({ body, signature, statusAtDelivery: row?.status });
      return { statusCode: answer };
    },
  });
}

let sandbox: SandboxPaymentProvider;
/** The test's engines, stopped after it: one left from an earlier test would deliver this test's events on its own. */
let engines: Jobs[] = [];
afterEach(async () => {
  await Promise.all(engines.map((engine) => engine.stop()));
  engines = [];
});
beforeAll(async () => {
  ({ db } = await getTestDatabase());
});
beforeEach(async () => {
  await resetDatabase(db);
  deliveries = [];
  logs = [];
  answers = [];
  sandbox = createSandbox();
});

/** A payment confirmed with an accepted card and captured: what Keyport's capture after its claim leaves. */
async function paidPayment(overrides: Partial<CreatePaymentInput> = {}) {
  const payment = await sandbox.createPayment(input(overrides));
  await sandbox.confirmPayment(payment.ref, { outcome: 'succeeded' });
  return sandbox.capturePayment(payment.ref, { idempotencyKey: `capture-${payment.ref}` });
}

let counter = 0;
const input = (overrides: Partial<CreatePaymentInput> = {}): CreatePaymentInput => ({
  amountCents: 12_000,
  currency: 'usd',
  description: 'Keyport upgrade LITE → REGULAR',
  metadata: { order_id: String(++counter), path: 'LITE_TO_REGULAR', license_key: 'KP-LITE-1' },
  receiptEmail: 'max@example.de',
  idempotencyKey: `upgrade-order-${counter}`,
  ...overrides,
});

describe('sandbox payments: creating', () => {
  it('stores a payment with Stripe-shaped ids that the sandbox confirm route accepts', async () => {
    expect(sandbox.name).toBe('sandbox');
    expect(sandbox.publishableKey).toBe(SANDBOX_PUBLISHABLE_KEY);
    expect(SANDBOX_PUBLISHABLE_KEY.startsWith('pk_sandbox_')).toBe(true);
    const request = input();
    const payment = await sandbox.createPayment(request);
    expect(payment).toEqual({
      ref: expect.stringMatching(/^pi_sandbox_[A-Za-z0-9]{24}$/),
      status: 'requires_payment',
      amountCents: 12_000,
      currency: 'usd',
      metadata: request.metadata,
      refundedCents: 0,
      clientSecret: expect.stringMatching(new RegExp(`^${payment.ref}_secret_[A-Za-z0-9]{24}$`)),
      lastError: null,
    });
    const body = { payment_intent_id: payment.ref, card_number: '4242424242424242' };
    expect(confirmSandboxPayment.body!.safeParse(body).success).toBe(true);
    expect(await sandbox.retrievePayment(payment.ref)).toEqual(payment);
  });

  it('answers the same payment for the same idempotency key, even 20 requests at once', async () => {
    const request = input({ metadata: { b: '2', a: '1', order_id: 'x' } });
    const payments = await Promise.all(Array.from({ length: 20 }, () => sandbox.createPayment(request)));
    expect(new Set(payments.map((p) => p.ref)).size).toBe(1);
    expect(new Set(payments.map((p) => p.clientSecret)).size).toBe(1);
    expect(await db.select().from(sandboxPayments)).toHaveLength(1);
  });

  it('refuses a reused idempotency key with other parameters, as Stripe does', async () => {
    const request = input();
    await sandbox.createPayment(request);
    await expect(sandbox.createPayment({ ...request, amountCents: 100 })).rejects.toThrow(
      /can only be used with the same parameters/,
    );
    await expect(sandbox.createPayment({ ...request, metadata: { order_id: 'other' } })).rejects.toBeInstanceOf(
      PaymentProviderError,
    );
  });

  it("refuses less than Stripe's minimum charge", async () => {
    await expect(sandbox.createPayment(input({ amountCents: 49 }))).rejects.toThrow(/at least \$0.50/);
  });

  it('answers null for an unknown payment', async () => {
    expect(await sandbox.retrievePayment('pi_sandbox_unknown')).toBeNull();
  });
});

describe('sandbox payments: confirming', () => {
  it('authorizes an accepted card and says so with a signed amount_capturable_updated after the update committed', async () => {
    const payment = await sandbox.createPayment(input());
    const result = await sandbox.confirmPayment(payment.ref, { outcome: 'succeeded' });
    expect(result).toEqual({ result: 'authorized', payment: { ...payment, status: 'requires_capture' } });
    await sandbox.idle();

    expect(deliveries).toHaveLength(1);
    const [delivery] = deliveries;
    expect(delivery!.statusAtDelivery).toBe('requires_capture');
    expect(delivery!.signature).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
    expect(sandbox.verifyWebhook(Buffer.from(delivery!.body), delivery!.signature)).toEqual({
      id: expect.stringMatching(/^evt_sandbox_[A-Za-z0-9]+$/),
      kind: 'payment_authorized',
      type: 'payment_intent.amount_capturable_updated',
      paymentRef: payment.ref,
      disputeRef: null,
    });
    // Exactly what Stripe's own SDK accepts from Stripe.
    const event = Stripe.webhooks.constructEvent(delivery!.body, delivery!.signature, webhookSecret);
    expect(event).toMatchObject({
      object: 'event',
      type: 'payment_intent.amount_capturable_updated',
      data: {
        object: { id: payment.ref, object: 'payment_intent', amount: 12_000, amount_capturable: 12_000 },
      },
    });
    expect(delivery!.body).not.toContain(payment.clientSecret);
  });

  it('captures an authorized payment once, then delivers payment_intent.succeeded; 10 captures at once, one event', async () => {
    const payment = await sandbox.createPayment(input());
    // Nothing to capture before the card authorized it.
    expect(await sandbox.capturePayment(payment.ref, { idempotencyKey: 'k' })).toMatchObject({
      status: 'requires_payment',
    });
    await sandbox.confirmPayment(payment.ref, { outcome: 'succeeded' });
    const results = await Promise.all(
      Array.from({ length: 10 }, () => sandbox.capturePayment(payment.ref, { idempotencyKey: 'k' })),
    );
    for (const captured of results) expect(captured.status).toBe('succeeded');
    await sandbox.idle();
    const succeeded = deliveries.filter((d) => d.body.includes('"payment_intent.succeeded"'));
    expect(succeeded).toHaveLength(1);
    expect(succeeded[0]!.statusAtDelivery).toBe('succeeded');
    await expect(sandbox.capturePayment('pi_sandbox_unknown', { idempotencyKey: 'k' })).rejects.toBeInstanceOf(
      PaymentProviderError,
    );
  });

  it('keeps a declined payment open with its message, sends payment_failed, and takes another card after', async () => {
    const payment = await sandbox.createPayment(input());
    const result = await sandbox.confirmPayment(payment.ref, declined);
    expect(result).toEqual({
      result: 'declined',
      code: 'card_declined',
      message: 'Your card was declined.',
      payment: { ...payment, lastError: 'Your card was declined.' },
    });
    await sandbox.idle();
    expect(deliveries).toHaveLength(1);
    expect(sandbox.verifyWebhook(Buffer.from(deliveries[0]!.body), deliveries[0]!.signature)).toMatchObject({
      kind: 'payment_failed',
      paymentRef: payment.ref,
    });
    expect(JSON.parse(deliveries[0]!.body)).toMatchObject({
      data: {
        object: {
          status: 'requires_payment_method',
          last_payment_error: { code: 'card_declined', message: 'Your card was declined.' },
        },
      },
    });

    const retried = await sandbox.confirmPayment(payment.ref, { outcome: 'succeeded' });
    expect(retried).toMatchObject({ result: 'authorized', payment: { status: 'requires_capture', lastError: null } });
  });

  it('confirms once when confirmed 10 times at once: one success, one event', async () => {
    const payment = await sandbox.createPayment(input());
    const results = await Promise.all(
      Array.from({ length: 10 }, () => sandbox.confirmPayment(payment.ref, { outcome: 'succeeded' })),
    );
    await sandbox.idle();
    expect(results.filter((r) => r.result === 'authorized')).toHaveLength(1);
    expect(results.filter((r) => r.result === 'not_confirmable')).toHaveLength(9);
    expect(deliveries).toHaveLength(1);
  });

  it('does not confirm a payment that was authorized, succeeded or canceled, nor an unknown one', async () => {
    const paid = await sandbox.createPayment(input());
    await sandbox.confirmPayment(paid.ref, { outcome: 'succeeded' });
    expect(await sandbox.confirmPayment(paid.ref, declined)).toMatchObject({
      result: 'not_confirmable',
      payment: { status: 'requires_capture', lastError: null },
    });
    const canceled = await sandbox.createPayment(input());
    await sandbox.cancelPayment(canceled.ref);
    expect(await sandbox.confirmPayment(canceled.ref, { outcome: 'succeeded' })).toMatchObject({
      result: 'not_confirmable',
      payment: { status: 'canceled' },
    });
    expect(await sandbox.confirmPayment('pi_sandbox_unknown', { outcome: 'succeeded' })).toEqual({
      result: 'not_found',
    });
    await sandbox.idle();
    expect(deliveries).toHaveLength(1);
  });
});

describe('sandbox payments: delivery', () => {
  it('retries a failed delivery with a fresh signature and logs it without secrets', async () => {
    answers = [new Error(`connection reset while posting with ${webhookSecret}`), 500, 200];
    const payment = await sandbox.createPayment(input());
    await sandbox.confirmPayment(payment.ref, { outcome: 'succeeded' });
    await sandbox.idle();

    expect(deliveries).toHaveLength(2); // the thrown attempt never reached the route
    // Logged when it starts failing and when it got through; the retry between is quiet.
    expect(logs.map((l) => `${l.level} ${l.message}`)).toEqual([
      'warn sandbox payment event failed; retrying with backoff',
      'info sandbox payment event succeeded after a retry',
    ]);
    expect(logs[0]).toMatchObject({
      data: { type: 'payment_intent.amount_capturable_updated', reason: expect.any(String) },
    });
    expect(logs[1]).toMatchObject({ data: { attempts: 3 } });
    const logged = JSON.stringify(logs);
    expect(logged).not.toContain(webhookSecret);
    expect(logged).not.toContain(payment.clientSecret);
    expect(logged).not.toContain(deliveries[0]!.signature.split('v1=')[1]);
    expect(logged).not.toContain('max@example.de');
  });

  it('gives up after a few attempts and says so in the log', async () => {
    answers = [503, 503, 503, 503, 200];
    const payment = await sandbox.createPayment(input());
    await sandbox.confirmPayment(payment.ref, { outcome: 'succeeded' });
    await sandbox.idle();
    expect(deliveries).toHaveLength(4);
    expect(logs.at(-1)).toMatchObject({
      level: 'error',
      message: 'sandbox payment event given up',
      data: { attempts: 4, reason: 'the webhook answered 503' },
    });
  });

  it('delivers an event whose sandbox (its process) is gone: the event is a job, and another worker sends it', async () => {
    const gone = createSandbox(); // its own engine never runs: the process died right after the commit
    const payment = await gone.createPayment(input());
    await gone.confirmPayment(payment.ref, { outcome: 'succeeded' });
    expect(deliveries).toHaveLength(0);
    await sandbox.idle(); // this process's worker takes the job, signs it with its own secret, delivers it
    expect(deliveries).toHaveLength(1);
    expect(sandbox.verifyWebhook(Buffer.from(deliveries[0]!.body), deliveries[0]!.signature)).toMatchObject({
      kind: 'payment_authorized',
      paymentRef: payment.ref,
    });
  });

  it('idle() resolves at once when nothing is in flight', async () => {
    await expect(sandbox.idle()).resolves.toBeUndefined();
  });

  it("refuses an event signed with another sandbox's secret", async () => {
    const other = createSandbox('whsec_sandbox_other_instance');
    const payment = await other.createPayment(input());
    await other.confirmPayment(payment.ref, { outcome: 'succeeded' });
    await other.idle();
    expect(() => sandbox.verifyWebhook(Buffer.from(deliveries[0]!.body), deliveries[0]!.signature)).toThrow(
      WebhookVerificationError,
    );
  });
});

describe('sandbox payments: refunds and cancelling', () => {
  it('refunds part, then the rest, announcing charge.refunded each time; never more than was paid', async () => {
    const payment = await paidPayment();
    expect(await sandbox.refundPayment(payment.ref, 2_000)).toMatchObject({ refundedCents: 2_000 });
    await expect(sandbox.refundPayment(payment.ref, 10_001)).rejects.toThrow(/greater than what remains/);
    expect(await sandbox.refundPayment(payment.ref, 10_000)).toMatchObject({ refundedCents: 12_000 });
    await sandbox.idle();

    // Events may arrive in any order (Stripe's too): the refunds, by the amount refunded so far.
    const refunds = deliveries
      .map((d) => ({
        event: sandbox.verifyWebhook(Buffer.from(d.body), d.signature),
        charge: (JSON.parse(d.body) as { data: { object: Record<string, unknown> } }).data.object,
      }))
      .filter((r) => r.event.type === 'charge.refunded')
      .sort((a, b) => Number(a.charge.amount_refunded) - Number(b.charge.amount_refunded));
    // Authorized, captured, then the two refunds.
    expect(deliveries).toHaveLength(4);
    expect(refunds.map((r) => r.event)).toEqual([
      expect.objectContaining({ kind: 'refunded', type: 'charge.refunded', paymentRef: payment.ref }),
      expect.objectContaining({ kind: 'refunded', type: 'charge.refunded', paymentRef: payment.ref }),
    ]);
    expect(refunds.map((r) => [r.charge.amount_refunded, r.charge.refunded])).toEqual([
      [2_000, false],
      [12_000, true],
    ]);
  });

  it('refunds exactly once when the same full refund is asked 10 times at once', async () => {
    const payment = await paidPayment();
    const results = await Promise.allSettled(
      Array.from({ length: 10 }, () => sandbox.refundPayment(payment.ref, 12_000)),
    );
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    expect((await sandbox.retrievePayment(payment.ref))?.refundedCents).toBe(12_000);
  });

  it('refuses to refund a payment that has not succeeded, an unknown one, or a non-positive amount', async () => {
    const waiting = await sandbox.createPayment(input());
    await expect(sandbox.refundPayment(waiting.ref, 100)).rejects.toThrow(/has not succeeded/);
    await sandbox.confirmPayment(waiting.ref, { outcome: 'succeeded' });
    await expect(sandbox.refundPayment(waiting.ref, 100)).rejects.toThrow(/has not succeeded/);
    await expect(sandbox.refundPayment('pi_sandbox_unknown', 100)).rejects.toThrow(/No such payment/);
    await expect(sandbox.refundPayment(waiting.ref, 0)).rejects.toBeInstanceOf(PaymentProviderError);
  });

  it('cancels a waiting or authorized payment (nothing can capture it then); a succeeded or canceled one: no-op', async () => {
    const waiting = await sandbox.createPayment(input());
    await sandbox.cancelPayment(waiting.ref);
    expect((await sandbox.retrievePayment(waiting.ref))?.status).toBe('canceled');
    await expect(sandbox.cancelPayment(waiting.ref)).resolves.toBeUndefined();

    const authorized = await sandbox.createPayment(input());
    await sandbox.confirmPayment(authorized.ref, { outcome: 'succeeded' });
    await sandbox.cancelPayment(authorized.ref);
    expect(await sandbox.capturePayment(authorized.ref, { idempotencyKey: 'k' })).toMatchObject({
      status: 'canceled',
    });

    const paid = await paidPayment();
    await sandbox.cancelPayment(paid.ref);
    expect((await sandbox.retrievePayment(paid.ref))?.status).toBe('succeeded');

    await expect(sandbox.cancelPayment('pi_sandbox_unknown')).rejects.toBeInstanceOf(PaymentProviderError);
  });
});

describe('sandbox payments: disputes', () => {
  const eventsOf = () =>
    deliveries.map((d) => sandbox.verifyWebhook(Buffer.from(d.body), d.signature)).filter((e) => e.kind === 'dispute');

  it('opens a dispute with its funds withdrawn, re-readable like Stripe’s, and closes it lost', async () => {
    const payment = await paidPayment();
    const disputeRef = await sandbox.disputePayment(payment.ref);
    expect(disputeRef).toMatch(/^dp_sandbox_/);
    expect(await sandbox.retrieveDispute(disputeRef)).toEqual({
      ref: disputeRef,
      paymentRef: payment.ref,
      state: 'funds_withdrawn',
      reason: 'fraudulent',
    });
    await sandbox.closeDispute(payment.ref, 'lost');
    expect(await sandbox.retrieveDispute(disputeRef)).toMatchObject({ state: 'lost' });
    await sandbox.idle();
    // Each event is delivered on its own (in any order, as Stripe's are).
    expect(
      eventsOf()
        .map((e) => [e.type, e.paymentRef, e.disputeRef])
        .sort(),
    ).toEqual([
      ['charge.dispute.closed', payment.ref, disputeRef],
      ['charge.dispute.created', payment.ref, disputeRef],
      ['charge.dispute.funds_withdrawn', payment.ref, disputeRef],
    ]);
    await expect(sandbox.closeDispute(payment.ref, 'won')).rejects.toThrow(/no open dispute/);
  });

  it('a won dispute reinstates the funds; an inquiry without withdrawal stays open until closed', async () => {
    const payment = await paidPayment();
    const disputeRef = await sandbox.disputePayment(payment.ref, { fundsWithdrawn: false, reason: 'general' });
    expect(await sandbox.retrieveDispute(disputeRef)).toMatchObject({ state: 'open', reason: 'general' });
    await sandbox.closeDispute(payment.ref, 'won');
    expect(await sandbox.retrieveDispute(disputeRef)).toMatchObject({ state: 'won' });
    await sandbox.idle();
    expect(
      eventsOf()
        .map((e) => e.type)
        .sort(),
    ).toEqual(['charge.dispute.closed', 'charge.dispute.created']);

    const withdrawn = await paidPayment();
    await sandbox.disputePayment(withdrawn.ref);
    await sandbox.closeDispute(withdrawn.ref, 'won');
    await sandbox.idle();
    expect(
      eventsOf()
        .filter((e) => e.paymentRef === withdrawn.ref)
        .map((e) => e.type)
        .sort(),
    ).toEqual([
      'charge.dispute.closed',
      'charge.dispute.created',
      'charge.dispute.funds_reinstated',
      'charge.dispute.funds_withdrawn',
    ]);
    expect(await sandbox.retrieveDispute('dp_sandbox_unknown')).toBeNull();
  });

  it('refuses to dispute a payment that was not captured', async () => {
    const payment = await sandbox.createPayment(input());
    await sandbox.confirmPayment(payment.ref, { outcome: 'succeeded' });
    await expect(sandbox.disputePayment(payment.ref)).rejects.toThrow(/no charge to dispute/);
    await expect(sandbox.disputePayment('pi_sandbox_unknown')).rejects.toThrow(/No such payment/);
  });
});
