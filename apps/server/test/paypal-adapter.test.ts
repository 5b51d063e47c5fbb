import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPaypalApiProvider, type PaypalApiProvider } from '../src/integrations/paypal/paypal-api-adapter';
import { PaypalCaptureError, PaypalProviderError, PaypalWebhookError } from '../src/integrations/paypal/port';
import { startFakePaypalApi, type FakePaypalApi } from './fakes/paypal-api';

let fake: FakePaypalApi;
let paypal: PaypalApiProvider;

beforeAll(async () => {
  fake = await startFakePaypalApi();
  paypal = createPaypalApiProvider({
    clientId: fake.clientId,
    clientSecret: fake.clientSecret,
    webhookId: fake.webhookId,
    environment: 'sandbox',
    apiBase: fake.url,
    timeoutMs: 5000,
  });
});
afterAll(() => fake.close());

let orders = 0;
const create = (amountCents = 14_280, n = ++orders) =>
  paypal.createOrder({
    amountCents,
    currency: 'USD',
    description: 'Keyport upgrade LITE → PRO',
    customId: String(n),
    invoiceId: `keyport-${n}`,
    returnUrl: 'http://portal.test/customer/my-keys?paypalReturn=true',
    cancelUrl: 'http://portal.test/customer/my-keys?paypalCancel=true',
    requestId: `keyport-order-${n}`,
  });

describe('the PayPal adapter against a local fake of Orders v2', () => {
  it('creates an order with intent CAPTURE in USD, its amount as a decimal string and the PayPal-Request-Id', async () => {
    const order = await create(14_280, 9001);
    expect(order).toMatchObject({
      status: 'PAYER_ACTION_REQUIRED',
      amountCents: 14_280,
      currency: 'USD',
      customId: '9001',
    });
    expect(order.approveUrl).toBe(`https://www.sandbox.paypal.com/checkoutnow?token=${order.ref}`);
    const sent = fake.requests.find((request) => request.method === 'POST' && request.path === '/v2/checkout/orders');
    expect(sent?.requestId).toBe('keyport-order-9001');
    expect(sent?.authorization).toMatch(/^Bearer A21AA/);
    expect(sent?.body).toMatchObject({
      intent: 'CAPTURE',
      purchase_units: [
        { amount: { currency_code: 'USD', value: '142.80' }, custom_id: '9001', invoice_id: 'keyport-9001' },
      ],
      payment_source: {
        paypal: { experience_context: { return_url: 'http://portal.test/customer/my-keys?paypalReturn=true' } },
      },
    });
    // The same request id: PayPal answers the same order, no second one.
    expect((await create(14_280, 9001)).ref).toBe(order.ref);
  });

  it('captures an approved order with a PayPal-Request-Id and returns it re-read', async () => {
    const order = await create();
    fake.approve(order.ref);
    const captured = await paypal.captureOrder(order.ref, 'keyport-capture-1');
    expect(captured).toMatchObject({
      status: 'COMPLETED',
      captureStatus: 'COMPLETED',
      capturedCents: 14_280,
      refundedCents: 0,
    });
    expect(captured.captureId).toBeTruthy();
    const capture = fake.requests.find((request) => request.path === `/v2/checkout/orders/${order.ref}/capture`);
    expect(capture?.requestId).toBe('keyport-capture-1');
  });

  it('treats ORDER_ALREADY_CAPTURED as success after re-reading the order', async () => {
    const order = await create();
    fake.approve(order.ref);
    await paypal.captureOrder(order.ref, 'keyport-capture-a');
    // Another request id: PayPal answers 422 ORDER_ALREADY_CAPTURED.
    const again = await paypal.captureOrder(order.ref, 'keyport-capture-b');
    expect(again).toMatchObject({ status: 'COMPLETED', captureStatus: 'COMPLETED' });
    const answers = fake.requests.filter((request) => request.path === `/v2/checkout/orders/${order.ref}/capture`);
    expect(answers).toHaveLength(2);
  });

  it('throws a typed error for a declined capture and for an order not approved yet', async () => {
    const order = await create();
    fake.approve(order.ref);
    fake.declineNextCapture(order.ref);
    const declined = await paypal.captureOrder(order.ref, 'keyport-capture-d').catch((error: unknown) => error);
    expect(declined).toBeInstanceOf(PaypalCaptureError);
    expect(declined).toMatchObject({ issue: 'INSTRUMENT_DECLINED', declined: true });

    const waiting = await create();
    const notApproved = await paypal.captureOrder(waiting.ref, 'keyport-capture-w').catch((error: unknown) => error);
    expect(notApproved).toMatchObject({ issue: 'ORDER_NOT_APPROVED', declined: false });
  });

  it('reads refunds and unknown orders', async () => {
    const order = await create(10_000);
    fake.approve(order.ref);
    await paypal.captureOrder(order.ref, `keyport-capture-r`);
    fake.refund(order.ref, 10_000);
    expect(await paypal.getOrder(order.ref)).toMatchObject({ captureStatus: 'REFUNDED', refundedCents: 10_000 });
    expect(await paypal.getOrder('UNKNOWN0ORDER0ID')).toBeNull();
  });

  it('refunds what remains of the capture with the PayPal-Request-Id; a retry replays, nothing is refunded twice', async () => {
    const order = await create(10_000);
    fake.approve(order.ref);
    const captured = await paypal.captureOrder(order.ref, 'keyport-capture-refund');
    const refunded = await paypal.refundOrder(order.ref, 'keyport-refund-order-9');
    expect(refunded).toMatchObject({ captureStatus: 'REFUNDED', refundedCents: 10_000 });
    const sent = fake.requests.filter(
      (request) => request.path === `/v2/payments/captures/${captured.captureId}/refund`,
    );
    expect(sent).toHaveLength(1);
    expect(sent[0]!.requestId).toBe('keyport-refund-order-9');

    expect(await paypal.refundOrder(order.ref, 'keyport-refund-order-9')).toMatchObject({ refundedCents: 10_000 });
    await expect(paypal.refundOrder(order.ref, 'another-request')).rejects.toBeInstanceOf(PaypalProviderError);
    expect(await paypal.getOrder(order.ref)).toMatchObject({ refundedCents: 10_000 });

    const uncaptured = await create();
    await expect(paypal.refundOrder(uncaptured.ref, 'keyport-refund-x')).rejects.toBeInstanceOf(PaypalProviderError);
  });

  it('verifies webhooks with verify-webhook-signature, and refuses a bad signature', async () => {
    const body = JSON.stringify({
      id: 'WH-1',
      event_type: 'PAYMENT.CAPTURE.COMPLETED',
      resource: { id: 'CAP1', custom_id: '7', supplementary_data: { related_ids: { order_id: 'ORDER1' } } },
    });
    const headers = (sig: string) => ({
      'paypal-auth-algo': 'SHA256withRSA',
      'paypal-cert-url': 'https://api.paypal.com/cert.pem',
      'paypal-transmission-id': 'T-1',
      'paypal-transmission-sig': sig,
      'paypal-transmission-time': new Date().toISOString(),
    });
    expect(await paypal.verifyWebhook(headers(fake.signatureFor('T-1')), Buffer.from(body))).toEqual({
      id: 'WH-1',
      kind: 'capture_completed',
      type: 'PAYMENT.CAPTURE.COMPLETED',
      orderRef: 'ORDER1',
      captureId: 'CAP1',
      customId: '7',
      disputeRef: null,
    });
    const verify = fake.requests
      .filter((request) => request.path === '/v1/notifications/verify-webhook-signature')
      .at(-1);
    expect(verify?.body).toMatchObject({
      webhook_id: fake.webhookId,
      transmission_id: 'T-1',
      webhook_event: { id: 'WH-1' },
    });
    await expect(paypal.verifyWebhook(headers('forged'), Buffer.from(body))).rejects.toBeInstanceOf(PaypalWebhookError);
    await expect(paypal.verifyWebhook({}, Buffer.from(body))).rejects.toBeInstanceOf(PaypalWebhookError);
  });

  it('reports wrong credentials as a provider error without the secret', async () => {
    const wrong = createPaypalApiProvider({
      clientId: fake.clientId,
      clientSecret: 'not-the-secret',
      webhookId: fake.webhookId,
      environment: 'sandbox',
      apiBase: fake.url,
    });
    const error = await wrong.getOrder('ANY').catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(PaypalProviderError);
    expect(String((error as Error).message)).not.toContain('not-the-secret');
  });
});
