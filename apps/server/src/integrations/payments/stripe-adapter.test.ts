/**
 * The Stripe adapter through the real `stripe` SDK against a local fake of the PaymentIntents API
 * (test/fakes/stripe-api.ts, on a random port via the SDK's host/port/protocol options), and its webhook checks on
 * deliveries signed the way Stripe signs them.
 */
import Stripe from 'stripe';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { confirmWithTestCard, startFakeStripeApi, type FakeStripeApi } from '../../../test/fakes/stripe-api';
import { type CreatePaymentInput, PaymentProviderError, WebhookVerificationError } from './port';
import { redactSecrets } from './redact-secrets';
import { createStripePaymentProvider, type StripePaymentProvider } from './stripe-adapter';
import { signStripePayload } from './stripe-webhook';

const webhookSecret = 'whsec_test_keyport_adapter';
let api: FakeStripeApi;
let stripe: StripePaymentProvider;

beforeAll(async () => {
  api = await startFakeStripeApi();
  stripe = createStripePaymentProvider({
    secretKey: api.secretKey,
    publishableKey: 'pk_test_keyport',
    webhookSecret,
    apiBase: api.url,
  });
});
afterAll(() => api.close());
beforeEach(() => {
  api.requests.length = 0;
});

let counter = 0;
const input = (overrides: Partial<CreatePaymentInput> = {}): CreatePaymentInput => ({
  amountCents: 14_280,
  currency: 'usd',
  description: 'Keyport upgrade LITE → REGULAR',
  metadata: { order_id: '41', license_key: 'KP-LITE-0001', path: 'LITE_TO_REGULAR' },
  receiptEmail: 'anna@example.de',
  idempotencyKey: `upgrade-order-${++counter}`,
  ...overrides,
});

describe('Stripe adapter: payments', () => {
  it('creates a card-only PaymentIntent in USD cents with metadata, receipt email, description and the idempotency key', async () => {
    const request = input();
    const payment = await stripe.createPayment(request);

    expect(payment).toEqual({
      ref: expect.stringMatching(/^pi_/),
      status: 'requires_payment',
      amountCents: 14_280,
      currency: 'usd',
      metadata: request.metadata,
      refundedCents: 0,
      clientSecret: expect.stringMatching(new RegExp(`^${payment.ref}_secret_`)),
      lastError: null,
    });
    const sent = api.requests.find((r) => r.method === 'POST' && r.path === '/v1/payment_intents')!;
    expect(sent.idempotencyKey).toBe(request.idempotencyKey);
    expect(sent.authorization).toBe(`Bearer ${api.secretKey}`);
    expect(sent.params).toMatchObject({
      amount: '14280',
      currency: 'usd',
      allowed_payment_method_types: ['card'],
      capture_method: 'manual',
      description: 'Keyport upgrade LITE → REGULAR',
      receipt_email: 'anna@example.de',
      metadata: request.metadata,
    });
    expect(sent.params).not.toHaveProperty('automatic_payment_methods');
    expect(api.intents.get(payment.ref)?.payment_method_types).toEqual(['card']);
  });

  it('leaves out the receipt email when there is none', async () => {
    await stripe.createPayment(input({ receiptEmail: null }));
    expect(api.requests.at(-1)!.params).not.toHaveProperty('receipt_email');
  });

  it('answers the same payment for a retried request with the same idempotency key', async () => {
    const request = input();
    const before = api.intents.size;
    const first = await stripe.createPayment(request);
    const again = await stripe.createPayment(request);
    expect(again.ref).toBe(first.ref);
    expect(again.clientSecret).toBe(first.clientSecret);
    expect(api.intents.size).toBe(before + 1);
    const changed = stripe.createPayment({ ...request, amountCents: 100 });
    await expect(changed).rejects.toBeInstanceOf(PaymentProviderError);
    await expect(changed).rejects.toThrow(/idempotency_key_in_use/);
  });

  it('reads a payment back: authorized by a test card, succeeded once captured, with what was refunded', async () => {
    const payment = await stripe.createPayment(input());
    expect((await confirmWithTestCard(api, payment.ref, 'pm_card_visa')).status).toBe(200);
    expect(await stripe.retrievePayment(payment.ref)).toMatchObject({ status: 'requires_capture' });
    await stripe.capturePayment(payment.ref, { idempotencyKey: `capture-${payment.ref}` });

    expect(await stripe.retrievePayment(payment.ref)).toMatchObject({
      ref: payment.ref,
      status: 'succeeded',
      amountCents: 14_280,
      refundedCents: 0,
      lastError: null,
    });

    const refund = await fetch(new URL('/v1/refunds', api.url), {
      method: 'POST',
      headers: { authorization: `Bearer ${api.secretKey}`, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ payment_intent: payment.ref, amount: '4280' }).toString(),
    });
    expect(refund.status).toBe(200);
    expect(await stripe.retrievePayment(payment.ref)).toMatchObject({ status: 'succeeded', refundedCents: 4280 });
  });

  it('reads a declined payment as waiting for another card, with the decline message', async () => {
    const payment = await stripe.createPayment(input());
    expect((await confirmWithTestCard(api, payment.ref, 'pm_card_chargeDeclined')).status).toBe(402);
    expect(await stripe.retrievePayment(payment.ref)).toMatchObject({
      status: 'requires_payment',
      lastError: 'Your card was declined.',
    });
  });

  it('captures an authorized payment with the idempotency key; one that cannot be captured is answered as it is', async () => {
    const payment = await stripe.createPayment(input());
    expect(await stripe.capturePayment(payment.ref, { idempotencyKey: 'cap-0' })).toMatchObject({
      status: 'requires_payment',
    });
    await confirmWithTestCard(api, payment.ref, 'pm_card_visa');
    const captured = await stripe.capturePayment(payment.ref, { idempotencyKey: 'keyport-capture-41-1' });
    expect(captured).toMatchObject({ ref: payment.ref, status: 'succeeded', amountCents: 14_280 });
    const sent = api.requests.filter((r) => r.path === `/v1/payment_intents/${payment.ref}/capture`);
    expect(sent.map((r) => r.idempotencyKey)).toEqual(['cap-0', 'keyport-capture-41-1']);
    // Captured already: Stripe refuses; the payment as it is answers (no second charge).
    expect(await stripe.capturePayment(payment.ref, { idempotencyKey: 'cap-2' })).toMatchObject({
      status: 'succeeded',
    });

    const released = await stripe.createPayment(input());
    await confirmWithTestCard(api, released.ref, 'pm_card_visa');
    await stripe.cancelPayment(released.ref);
    expect(await stripe.capturePayment(released.ref, { idempotencyKey: 'cap-3' })).toMatchObject({
      status: 'canceled',
    });
    api.failNext(500);
    await expect(stripe.capturePayment(released.ref, { idempotencyKey: 'cap-4' })).rejects.toBeInstanceOf(
      PaymentProviderError,
    );
  });

  it('reads disputes back in Keyport terms: withdrawn, open (an inquiry), won, lost; null when unknown', async () => {
    const payment = await stripe.createPayment(input());
    await confirmWithTestCard(api, payment.ref, 'pm_card_visa');
    await stripe.capturePayment(payment.ref, { idempotencyKey: `capture-${payment.ref}` });
    const withdrawn = api.dispute(payment.ref);
    expect(await stripe.retrieveDispute(withdrawn.id)).toEqual({
      ref: withdrawn.id,
      paymentRef: payment.ref,
      state: 'funds_withdrawn',
      reason: 'fraudulent',
    });
    api.closeDispute(withdrawn.id, 'won');
    expect(await stripe.retrieveDispute(withdrawn.id)).toMatchObject({ state: 'won' });

    const other = await stripe.createPayment(input());
    await confirmWithTestCard(api, other.ref, 'pm_card_visa');
    await stripe.capturePayment(other.ref, { idempotencyKey: `capture-${other.ref}` });
    const inquiry = api.dispute(other.ref, { fundsWithdrawn: false, reason: 'product_not_received' });
    expect(await stripe.retrieveDispute(inquiry.id)).toMatchObject({ state: 'open', reason: 'product_not_received' });
    api.closeDispute(inquiry.id, 'lost');
    expect(await stripe.retrieveDispute(inquiry.id)).toMatchObject({ state: 'lost' });
    expect(await stripe.retrieveDispute('dp_doesnotexist')).toBeNull();
  });

  it('refunds what remains through stripe.refunds.create with the idempotency key; a retry refunds nothing more', async () => {
    const payment = await stripe.createPayment(input());
    expect((await confirmWithTestCard(api, payment.ref, 'pm_card_visa')).status).toBe(200);
    await stripe.capturePayment(payment.ref, { idempotencyKey: `capture-${payment.ref}` });
    const refunded = await stripe.refundPayment(payment.ref, { idempotencyKey: 'keyport-refund-order-41' });
    expect(refunded).toMatchObject({ ref: payment.ref, status: 'succeeded', refundedCents: 14_280 });
    const sent = api.requests.filter((r) => r.method === 'POST' && r.path === '/v1/refunds');
    expect(sent).toHaveLength(1);
    expect(sent[0]!.idempotencyKey).toBe('keyport-refund-order-41');

    // The same key again (a retried staff request): Stripe replays the first refund.
    expect(await stripe.refundPayment(payment.ref, { idempotencyKey: 'keyport-refund-order-41' })).toMatchObject({
      refundedCents: 14_280,
    });
    // Nothing left to refund under another key: a provider error, never a second refund.
    await expect(stripe.refundPayment(payment.ref, { idempotencyKey: 'another-key' })).rejects.toBeInstanceOf(
      PaymentProviderError,
    );
    expect(await stripe.retrievePayment(payment.ref)).toMatchObject({ refundedCents: 14_280 });
  });

  it('answers null for a payment Stripe does not know', async () => {
    expect(await stripe.retrievePayment('pi_doesnotexist')).toBeNull();
  });

  it('cancels a waiting or authorized payment, and does nothing to one that succeeded or is already canceled', async () => {
    const waiting = await stripe.createPayment(input());
    await stripe.cancelPayment(waiting.ref);
    expect((await stripe.retrievePayment(waiting.ref))?.status).toBe('canceled');
    await expect(stripe.cancelPayment(waiting.ref)).resolves.toBeUndefined();

    const paid = await stripe.createPayment(input());
    await confirmWithTestCard(api, paid.ref, 'pm_card_visa');
    await stripe.capturePayment(paid.ref, { idempotencyKey: `capture-${paid.ref}` });
    await expect(stripe.cancelPayment(paid.ref)).resolves.toBeUndefined();
    expect((await stripe.retrievePayment(paid.ref))?.status).toBe('succeeded');

    await expect(stripe.cancelPayment('pi_doesnotexist')).rejects.toBeInstanceOf(PaymentProviderError);
  });

  it('turns a Stripe failure into PaymentProviderError', async () => {
    api.failNext(500);
    await expect(stripe.createPayment(input())).rejects.toThrow(PaymentProviderError);
    api.failNext(503);
    await expect(stripe.retrievePayment('pi_any')).rejects.toThrow(/api_error/);
  });

  it('never puts the secret key in its errors', async () => {
    const secretKey = 'sk_test_51WrongKeyWrongKeyWrongKey9876';
    const wrong = createStripePaymentProvider({
      secretKey,
      publishableKey: 'pk_test_keyport',
      webhookSecret,
      apiBase: api.url,
    });
    const failure = await wrong.createPayment(input()).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(PaymentProviderError);
    const message = (failure as Error).message;
    expect(message).toMatch(/api_key_invalid/);
    expect(message).not.toContain(secretKey);
    expect(message).not.toContain('9876');
    expect(JSON.stringify(failure)).not.toContain('9876');
  });

  it('redacts keys and client secrets from any text', () => {
    expect(
      redactSecrets('key sk_live_abc123, rk_test_x*9, whsec_abc and pi_3Abc_secret_XyZ in pi_3Abc (pk_test_ok)'),
    ).toBe(
      'key sk_live_[redacted], rk_test_[redacted], whsec_[redacted] and pi_3Abc_secret_[redacted] in pi_3Abc (pk_test_ok)',
    );
  });
});

const event = (type: string, object: Record<string, unknown>, id = `evt_${++counter}`) =>
  JSON.stringify({ id, object: 'event', type, created: 1_700_000_000, data: { object } });
const now = () => Math.floor(Date.now() / 1000);
const sign = (body: string, secret = webhookSecret, timestamp = now()) =>
  Stripe.webhooks.generateTestHeaderString({ payload: body, secret, timestamp });

describe('Stripe adapter: webhooks', () => {
  it('maps payment_intent.succeeded, payment_intent.payment_failed and charge.refunded to the payment', () => {
    const succeeded = event('payment_intent.succeeded', { id: 'pi_1', object: 'payment_intent' }, 'evt_ok');
    expect(stripe.verifyWebhook(Buffer.from(succeeded), sign(succeeded))).toEqual({
      id: 'evt_ok',
      kind: 'payment_succeeded',
      type: 'payment_intent.succeeded',
      paymentRef: 'pi_1',
      disputeRef: null,
    });
    const authorized = event('payment_intent.amount_capturable_updated', { id: 'pi_5', object: 'payment_intent' });
    expect(stripe.verifyWebhook(Buffer.from(authorized), sign(authorized))).toMatchObject({
      kind: 'payment_authorized',
      paymentRef: 'pi_5',
    });
    const failed = event('payment_intent.payment_failed', { id: 'pi_2', object: 'payment_intent' });
    expect(stripe.verifyWebhook(Buffer.from(failed), sign(failed))).toMatchObject({
      kind: 'payment_failed',
      paymentRef: 'pi_2',
    });
    const refunded = event('charge.refunded', { id: 'ch_1', object: 'charge', payment_intent: 'pi_3' });
    expect(stripe.verifyWebhook(Buffer.from(refunded), sign(refunded))).toMatchObject({
      kind: 'refunded',
      type: 'charge.refunded',
      paymentRef: 'pi_3',
    });
  });

  it.each([
    'charge.dispute.created',
    'charge.dispute.updated',
    'charge.dispute.closed',
    'charge.dispute.funds_withdrawn',
    'charge.dispute.funds_reinstated',
  ])('maps %s (a Dispute object) to its dispute and PaymentIntent, and ignores one without', (type) => {
    const dispute = event(type, {
      id: 'dp_1',
      object: 'dispute',
      charge: 'ch_4',
      payment_intent: 'pi_4',
      reason: 'fraudulent',
      status: 'needs_response',
    });
    expect(stripe.verifyWebhook(Buffer.from(dispute), sign(dispute))).toMatchObject({
      kind: 'dispute',
      type,
      paymentRef: 'pi_4',
      disputeRef: 'dp_1',
    });
    const orphan = event(type, { id: 'dp_2', object: 'dispute', payment_intent: null });
    expect(stripe.verifyWebhook(Buffer.from(orphan), sign(orphan))).toMatchObject({
      kind: 'ignored',
      paymentRef: null,
    });
  });

  it('ignores a refunded charge that belongs to no PaymentIntent', () => {
    const body = event('charge.refunded', { id: 'ch_2', object: 'charge', payment_intent: null });
    expect(stripe.verifyWebhook(Buffer.from(body), sign(body))).toMatchObject({ kind: 'ignored', paymentRef: null });
  });

  it('accepts the signature Keyport computes itself (what the sandbox sends) exactly like the SDK’s', () => {
    const body = event('payment_intent.succeeded', { id: 'pi_9' });
    const t = now();
    expect(signStripePayload(body, webhookSecret, t)).toBe(sign(body, webhookSecret, t));
    expect(stripe.verifyWebhook(Buffer.from(body), signStripePayload(body, webhookSecret, t)).paymentRef).toBe('pi_9');
  });

  describe('six forged or unusable deliveries', () => {
    const body = event('payment_intent.succeeded', { id: 'pi_forged', object: 'payment_intent' });
    const refused = (raw: string, header: string | undefined) => () => stripe.verifyWebhook(Buffer.from(raw), header);

    it('1. no Stripe-Signature header', () => {
      expect(refused(body, undefined)).toThrow(WebhookVerificationError);
      expect(refused(body, '')).toThrow(WebhookVerificationError);
    });
    it('2. signed with another secret', () => {
      expect(refused(body, sign(body, 'whsec_someone_else'))).toThrow(WebhookVerificationError);
    });
    it('3. body altered after signing', () => {
      expect(refused(body.replace('pi_forged', 'pi_other00'), sign(body))).toThrow(WebhookVerificationError);
    });
    it('4. timestamp outside the 5-minute tolerance', () => {
      expect(refused(body, sign(body, webhookSecret, now() - 301))).toThrow(WebhookVerificationError);
      expect(refused(body, sign(body, webhookSecret, now() - 3600))).toThrow(/timestamp/i);
      expect(refused(body, sign(body, webhookSecret, now() + 3600))).toThrow(/timestamp/i);
      expect(stripe.verifyWebhook(Buffer.from(body), sign(body, webhookSecret, now() - 60)).paymentRef).toBe(
        'pi_forged',
      );
    });
    it('5. an event type Keyport does not handle is answered as ignored', () => {
      const other = event('customer.created', { id: 'cus_1', object: 'customer' }, 'evt_other');
      expect(stripe.verifyWebhook(Buffer.from(other), sign(other))).toEqual({
        id: 'evt_other',
        kind: 'ignored',
        type: 'customer.created',
        paymentRef: null,
        disputeRef: null,
      });
    });
    it('6. a correctly signed body that is not JSON, or not an event', () => {
      expect(refused('not json {', sign('not json {'))).toThrow(WebhookVerificationError);
      expect(refused('{"hello":"world"}', sign('{"hello":"world"}'))).toThrow(/not an event/);
      expect(refused('[1,2]', sign('[1,2]'))).toThrow(WebhookVerificationError);
    });
  });
});
