import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { invoices, orders } from '../src/db/schema';
import { startFakePaypalApi, type FakePaypalApi, type FakePaypalDispute } from './fakes/paypal-api';
import { auth, createTestApp, signUp, type TestApp } from './helpers/test-app';
import { ownedKey, tierOf as tierOfKey } from './helpers/keys';

/**
 * The PayPal routes with the real adapter (chosen by config, as in production), pointed at the local fake of Orders v2:
 * what the sandbox cannot show — PayPal's approve link, the request ids PayPal sees, a declined capture, and webhooks
 * verified by PayPal's verify-webhook-signature call.
 */
let fake: FakePaypalApi;
let t: TestApp;

beforeAll(async () => {
  fake = await startFakePaypalApi();
  t = await createTestApp({
    PAYPAL_CLIENT_ID: fake.clientId,
    PAYPAL_CLIENT_SECRET: fake.clientSecret,
    PAYPAL_WEBHOOK_ID: fake.webhookId,
    PAYPAL_ENV: 'sandbox',
    PAYPAL_API_BASE: fake.url.origin,
    PUBLIC_URL: 'https://portal.example.com',
  });
});
afterAll(() => fake.close());

let people = 0;
const newUser = () => signUp(t, `paypal-real-${++people}@example.com`, { ip: `10.42.0.${people}` });

const liteKeyFor = (userId: number) => ownedKey(t, userId, 'LITE');
const tierOf = (apiKey: string) => tierOfKey(t, apiKey);

const body = (key: string) => ({
  price_id: 'price_sandbox_lite_to_regular',
  theme_type: 'REGULAR',
  key,
  country_code: 'US',
  customer_name: 'Sam Buyer',
  customer_email: 'sam@example.com',
  billing_address: { line1: '1 Main St', city: 'Austin', state: 'TX', postal_code: '73301', country: 'US' },
});

type Created = { order: { id: string }; approve_url: string; quote: { id: number; total_amount: number } };

const createOrder = (token: string, key: string) =>
  t.app.inject({ method: 'POST', url: '/stripe/paypal/create-order', headers: auth(token), payload: body(key) });
const capture = (token: string, orderId: string) =>
  t.app.inject({
    method: 'POST',
    url: '/stripe/paypal/capture-order',
    headers: { authorization: `Bearer ${token}` },
    payload: { order_id: orderId },
  });

function webhook(
  type: string,
  orderRef: string,
  transmissionId: string,
  signature = fake.signatureFor(transmissionId),
) {
  const raw = JSON.stringify({
    id: `WH-${transmissionId}`,
    event_version: '1.0',
    event_type: type,
    resource: { id: 'CAPTURE', supplementary_data: { related_ids: { order_id: orderRef } } },
  });
  // At the webhook's first path (issue 21: kept working); the dispute events below take /paypal/webhook.
  return t.app.inject({
    method: 'POST',
    url: '/stripe/paypal/webhook',
    headers: {
      'content-type': 'application/json',
      'paypal-auth-algo': 'SHA256withRSA',
      'paypal-cert-url': 'https://api.sandbox.paypal.com/v1/notifications/certs/CERT-360caa42',
      'paypal-transmission-id': transmissionId,
      'paypal-transmission-sig': signature,
      'paypal-transmission-time': new Date().toISOString(),
    },
    payload: raw,
  });
}

/** A dispute event as PayPal sends it: the dispute as its resource; the app re-reads it from the fake. */
function disputeWebhook(type: string, dispute: FakePaypalDispute, transmissionId: string) {
  const raw = JSON.stringify({ id: `WH-${transmissionId}`, event_version: '1.0', event_type: type, resource: dispute });
  return t.app.inject({
    method: 'POST',
    url: '/paypal/webhook',
    headers: {
      'content-type': 'application/json',
      'paypal-auth-algo': 'SHA256withRSA',
      'paypal-cert-url': 'https://api.sandbox.paypal.com/v1/notifications/certs/CERT-360caa42',
      'paypal-transmission-id': transmissionId,
      'paypal-transmission-sig': fake.signatureFor(transmissionId),
      'paypal-transmission-time': new Date().toISOString(),
    },
    payload: raw,
  });
}

describe('PayPal routes with the PayPal adapter (local fake of Orders v2)', () => {
  it('GET /stripe/paypal/config gives the client id for PayPal Buttons', async () => {
    const response = await t.app.inject({ url: '/stripe/paypal/config' });
    expect(response.json()).toEqual({ mode: 'paypal', clientId: fake.clientId });
  });

  it('has no sandbox approval page when PayPal is configured', async () => {
    expect((await t.app.inject({ url: '/sandbox/paypal/checkout?token=AAAAAAAAAAAAAAAAA' })).statusCode).toBe(404);
  });

  it('creates at PayPal with the order total, our ids and return URLs; captures with a request id; upgrades once', async () => {
    const { token, id } = await newUser();
    const key = await liteKeyFor(id);
    const created = await createOrder(token, key);
    expect(created.statusCode).toBe(200);
    const { order, approve_url, quote } = created.json<Created>();
    expect(approve_url).toBe(`https://www.sandbox.paypal.com/checkoutnow?token=${order.id}`);
    const sent = fake.requests.find((request) => request.path === '/v2/checkout/orders' && request.method === 'POST');
    expect(sent?.requestId).toBe(`keyport-order-${quote.id}`);
    expect(sent?.body).toMatchObject({
      intent: 'CAPTURE',
      purchase_units: [{ amount: { currency_code: 'USD', value: '120.00' }, custom_id: String(quote.id) }],
      payment_source: {
        paypal: {
          experience_context: {
            return_url: 'https://portal.example.com/customer/my-keys?paypalReturn=true',
            cancel_url: 'https://portal.example.com/customer/my-keys?paypalCancel=true',
          },
        },
      },
    });

    fake.approve(order.id);
    const captured = await capture(token, order.id);
    expect(captured.statusCode).toBe(200);
    expect(captured.json()).toMatchObject({ order: { status: 'completed' }, key: { api_key: key } });
    expect(await tierOf(key)).toBe('REGULAR');
    const captureCall = fake.requests.find((request) => request.path === `/v2/checkout/orders/${order.id}/capture`);
    // One request id per claim of the order (ADR 035).
    expect(captureCall?.requestId).toMatch(new RegExp(`^keyport-capture-${quote.id}-\\d+$`));

    // PayPal's own webhook for the capture, verified by PayPal: nothing more happens.
    const event = await webhook('PAYMENT.CAPTURE.COMPLETED', order.id, 'T-COMPLETED-1');
    expect(event.statusCode).toBe(200);
    expect(event.json()).toEqual({ received: true, duplicate: false });
    expect((await webhook('PAYMENT.CAPTURE.COMPLETED', order.id, 'T-COMPLETED-1')).json()).toEqual({
      received: true,
      duplicate: true,
    });

    // A full refund at PayPal, then its webhook: the tier goes back.
    fake.refund(order.id, quote.total_amount);
    expect((await webhook('PAYMENT.CAPTURE.REFUNDED', order.id, 'T-REFUNDED-1')).statusCode).toBe(200);
    expect(await tierOf(key)).toBe('LITE');
    const [row] = await t.db.select().from(orders).where(eq(orders.id, quote.id));
    expect(row).toMatchObject({ provider: 'paypal', status: 'refunded' });
  });

  it("a declined capture answers 402 'Capture failed' and the order waits for another attempt", async () => {
    const { token, id } = await newUser();
    const key = await liteKeyFor(id);
    const { order } = (await createOrder(token, key)).json<Created>();
    fake.approve(order.id);
    fake.declineNextCapture(order.id);
    const declined = await capture(token, order.id);
    expect(declined.statusCode).toBe(402);
    expect(declined.json()).toEqual({ error: 'Capture failed', code: 'capture_declined' });
    expect(await tierOf(key)).toBe('LITE');
    const [row] = await t.db.select().from(orders).where(eq(orders.providerPaymentId, order.id));
    expect(row).toMatchObject({ status: 'pending' });
    expect(row!.lastPaymentError).toContain('declined');

    // The payer picks another funding source and comes back: a new request id, so PayPal does not replay the decline.
    const retried = await capture(token, order.id);
    expect(retried.statusCode).toBe(200);
    expect(retried.json()).toMatchObject({ order: { status: 'completed' } });
    expect(await tierOf(key)).toBe('REGULAR');
    const ids = fake.requests
      .filter((request) => request.path === `/v2/checkout/orders/${order.id}/capture`)
      .map((request) => request.requestId);
    expect(ids).toHaveLength(2);
    expect(ids[0]).toMatch(new RegExp(`^keyport-capture-${row!.id}-\\d+$`));
    expect(ids[1]).toMatch(new RegExp(`^keyport-capture-${row!.id}-\\d+$`));
    expect(ids[1]).not.toBe(ids[0]);
  });

  it('CUSTOMER.DISPUTE.CREATED marks the order disputed; RESOLVED for the buyer charges it back (tier, credit note)', async () => {
    const { token, id } = await newUser();
    const key = await liteKeyFor(id);
    const { order, quote } = (await createOrder(token, key)).json<Created>();
    fake.approve(order.id);
    expect((await capture(token, order.id)).statusCode).toBe(200);
    expect(await tierOf(key)).toBe('REGULAR');

    const opened = fake.openDispute(order.id);
    // The event's resource claims it is resolved already; the app re-reads the dispute from PayPal and sees it open.
    const claimed = {
      ...opened,
      status: 'RESOLVED' as const,
      dispute_outcome: { outcome_code: 'RESOLVED_BUYER_FAVOUR' },
    };
    expect((await disputeWebhook('CUSTOMER.DISPUTE.CREATED', claimed, 'T-DISPUTE-1')).json()).toEqual({
      received: true,
      duplicate: false,
    });
    const disputedRow = async () => (await t.db.select().from(orders).where(eq(orders.id, quote.id)))[0]!;
    expect(await disputedRow()).toMatchObject({
      status: 'disputed',
      disputeState: 'open',
      disputeRef: opened.dispute_id,
    });
    expect(await tierOf(key)).toBe('REGULAR');
    expect(fake.requests.some((request) => request.path === `/v1/customer/disputes/${opened.dispute_id}`)).toBe(true);

    const resolved = fake.resolveDispute(opened.dispute_id, 'RESOLVED_BUYER_FAVOUR');
    expect((await disputeWebhook('CUSTOMER.DISPUTE.RESOLVED', resolved, 'T-DISPUTE-2')).statusCode).toBe(200);
    expect(await disputedRow()).toMatchObject({ status: 'charged_back', disputeState: 'lost' });
    expect(await tierOf(key)).toBe('LITE');
    const documents = await t.db.select().from(invoices).where(eq(invoices.orderId, quote.id));
    expect(documents.map((document) => document.kind).sort()).toEqual(['credit_note', 'invoice']);
    // A replay changes nothing.
    expect((await disputeWebhook('CUSTOMER.DISPUTE.RESOLVED', resolved, 'T-DISPUTE-2')).json()).toEqual({
      received: true,
      duplicate: true,
    });
  });

  it('CUSTOMER.DISPUTE.RESOLVED for the seller returns the order to paid; a dispute of no order of ours is ignored', async () => {
    const { token, id } = await newUser();
    const key = await liteKeyFor(id);
    const { order, quote } = (await createOrder(token, key)).json<Created>();
    fake.approve(order.id);
    await capture(token, order.id);
    const opened = fake.openDispute(order.id);
    await disputeWebhook('CUSTOMER.DISPUTE.CREATED', opened, 'T-DISPUTE-3');
    const resolved = fake.resolveDispute(opened.dispute_id, 'RESOLVED_SELLER_FAVOUR');
    expect((await disputeWebhook('CUSTOMER.DISPUTE.RESOLVED', resolved, 'T-DISPUTE-4')).statusCode).toBe(200);
    const [row] = await t.db.select().from(orders).where(eq(orders.id, quote.id));
    expect(row).toMatchObject({ status: 'completed', disputeState: 'won' });
    expect(await tierOf(key)).toBe('REGULAR');
    // PayPal reports no withdrawal: nothing was credited, so the invoice stands alone (ADR 035).
    const documents = await t.db.select().from(invoices).where(eq(invoices.orderId, quote.id));
    expect(documents.map((document) => document.kind)).toEqual(['invoice']);

    // A dispute naming our order id but another capture (not this order's at PayPal): nothing changes.
    const forged = {
      ...opened,
      dispute_id: 'PP-D-FORGED',
      disputed_transactions: [{ ...opened.disputed_transactions[0]!, seller_transaction_id: 'OTHERCAPTURE' }],
    };
    fake.disputes.set(forged.dispute_id, forged);
    expect((await disputeWebhook('CUSTOMER.DISPUTE.CREATED', forged, 'T-DISPUTE-5')).statusCode).toBe(200);
    const [after] = await t.db.select().from(orders).where(eq(orders.id, quote.id));
    expect(after).toMatchObject({ status: 'completed', disputeState: 'won' });
  });

  it('refuses a webhook PayPal does not verify', async () => {
    const response = await webhook('PAYMENT.CAPTURE.COMPLETED', 'ANYORDER', 'T-FORGED', 'forged-signature');
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ error: 'Invalid webhook signature.', code: 'invalid_signature' });
  });

  it('answers 502 with the wallet text when PayPal is down, and writes no PayPal order', async () => {
    const { token, id } = await newUser();
    const key = await liteKeyFor(id);
    await fake.close();
    const response = await createOrder(token, key);
    expect(response.statusCode).toBe(502);
    expect(response.json()).toEqual({ error: 'Failed to create order', code: 'provider_unavailable' });
    const [row] = await t.db.select().from(orders).where(eq(orders.licenseKey, key));
    expect(row?.providerPaymentId ?? null).toBeNull();
  });
});
