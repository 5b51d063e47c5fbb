import { and, eq, like } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  analyticsOutbox,
  auditLog,
  emailOutbox,
  invoices,
  licenseKeys,
  licenseKeyTierChanges,
  paymentWebhookEvents,
  purchasedUpgrades,
  sandboxPaypalOrders,
  orders,
} from '../src/db/schema';
import {
  createSandboxPaypalProvider,
  signSandboxPaypalEvent,
  type SandboxPaypalProvider,
} from '../src/integrations/paypal/sandbox-adapter';
import { QUICK_SANDBOX_RETRY, testJobs } from './helpers/jobs';
import { auth, createTestApp, getTestDatabase, signUp, type TestApp } from './helpers/test-app';
import { ownedKey, paypalOrderBody as body, tierOf as tierOfKey } from './helpers/keys';

const WEBHOOK_SECRET = 'paypal_sandbox_test_secret';

let t: TestApp;
let wallet: SandboxPaypalProvider;
/** Every event the sandbox wallet delivered, as it sent it, for the replay tests. */
const delivered: { raw: string; headers: Record<string, string> }[] = [];

beforeAll(async () => {
  const { db } = await getTestDatabase();
  // The sandbox wallet exactly as services.ts builds it, with a known secret so the tests can sign events too; its
  // deliveries go through the app's own webhook route.
  wallet = createSandboxPaypalProvider({
    db,
    webhookSecret: WEBHOOK_SECRET,
    jobs: testJobs(db),
    retry: QUICK_SANDBOX_RETRY,
    deliver: async (raw, headers) => {
      delivered.push({ raw, headers });
      const response = await t.app.inject({ method: 'POST', url: '/paypal/webhook', headers, payload: raw });
      return { statusCode: response.statusCode };
    },
  });
  t = await createTestApp({}, { paypal: wallet });
});

let people = 0;
let ips = 0;
const newUser = (label = 'wallet') =>
  signUp(t, `${label}-${++people}@example.com`, { ip: `10.41.${Math.floor(++ips / 250)}.${(ips % 250) + 1}` });

const keyFor = (userId: number, tier: 'LITE' | 'REGULAR' | 'PRO' = 'LITE') => ownedKey(t, userId, tier);

const tierOf = (apiKey: string) => tierOfKey(t, apiKey);

const createOrder = (token: string, payload: object) =>
  t.app.inject({ method: 'POST', url: '/stripe/paypal/create-order', headers: auth(token), payload });
const capture = (token: string, orderId: string) =>
  t.app.inject({
    method: 'POST',
    url: '/stripe/paypal/capture-order',
    headers: auth(token),
    payload: { order_id: orderId },
  });
const decide = (token: string, action: 'approve' | 'cancel') =>
  t.app.inject({
    method: 'POST',
    url: '/sandbox/paypal/checkout',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({ token, action }).toString(),
  });
/** PayPal's webhook: `/paypal/webhook`, or its first path under /stripe/ (issue 21: both kept, one handler). */
const WEBHOOK_PATHS = ['/paypal/webhook', '/stripe/paypal/webhook'] as const;
const sendWebhook = (raw: string, headers: Record<string, string>, url: string = WEBHOOK_PATHS[0]) =>
  t.app.inject({ method: 'POST', url, headers, payload: raw });

type Created = { order: { id: string }; approve_url: string; quote: Record<string, unknown> & { id: number } };

const receiptsTo = async (email: string, key: string) =>
  (
    await t.db
      .select()
      .from(emailOutbox)
      .where(and(eq(emailOutbox.to, email), like(emailOutbox.subject, 'Your Keyport receipt%')))
  ).filter((row) => row.body.includes(key));

async function approvedOrder(tier: 'LITE' | 'REGULAR' = 'LITE', extra: Record<string, unknown> = {}) {
  const user = await newUser();
  const key = await keyFor(user.id, tier);
  const created = await createOrder(user.token, body(key, extra));
  expect(created.statusCode).toBe(200);
  const { order, quote } = created.json<Created>();
  expect((await decide(order.id, 'approve')).statusCode).toBe(303);
  return { ...user, key, ref: order.id, quote };
}

describe('GET /stripe/paypal/config', () => {
  it('says the sandbox, without a client id, and without a session', async () => {
    const response = await t.app.inject({ url: '/stripe/paypal/config' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ mode: 'sandbox', clientId: null });
  });
});

describe('LITE→PRO through the sandbox approval page, end to end', () => {
  it('creates the order on the server amounts, approves on the page, captures once and upgrades the key', async () => {
    const { token, id } = await newUser();
    const key = await keyFor(id);
    const created = await createOrder(token, body(key, { amount: 1, total_amount: 1 }));
    expect(created.statusCode).toBe(200);
    const { order, approve_url, quote } = created.json<Created>();
    expect(order.id).toMatch(/^[A-Z0-9]{17}$/);
    expect(approve_url).toBe(`/sandbox/paypal/checkout?token=${order.id}`);
    // $320 LITE→PRO with German VAT (19 %), computed on the server.
    expect(quote).toMatchObject({ status: 'pending', from: 'LITE', to: 'PRO', base_amount: 32000, vat_amount: 6080 });
    const [row] = await t.db.select().from(orders).where(eq(orders.id, quote.id));
    expect(row).toMatchObject({ provider: 'paypal_sandbox', providerPaymentId: order.id, totalAmountCents: 38080 });
    const [standIn] = await t.db.select().from(sandboxPaypalOrders).where(eq(sandboxPaypalOrders.id, order.id));
    expect(standIn).toMatchObject({
      amountCents: 38080,
      currency: 'USD',
      customId: String(quote.id),
      requestId: `keyport-order-${quote.id}`,
      status: 'CREATED',
    });
    expect(standIn!.returnUrl).toMatch(/\/customer\/my-keys\?paypalReturn=true$/);

    // The approval page: server-rendered, no script, under the app's CSP.
    const page = await t.app.inject({ url: approve_url });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.headers['content-security-policy']).toContain("script-src 'self'");
    expect(page.body).toContain('$380.80 USD');
    expect(page.body).toContain('Approve payment');
    expect(page.body).toContain('<html lang="en">');
    expect(page.body).not.toContain('<script');

    // Capture before approval fails, and takes nothing.
    const early = await capture(token, order.id);
    expect(early.statusCode).toBe(409);
    expect(early.json()).toEqual({ error: 'Capture failed', code: 'order_not_approved' });
    expect(await tierOf(key)).toBe('LITE');

    const approved = await decide(order.id, 'approve');
    expect(approved.statusCode).toBe(303);
    expect(approved.headers.location).toBe(
      `/customer/my-keys?paypalReturn=true&token=${order.id}&PayerID=SANDBOXPAYER`,
    );

    const captured = await capture(token, order.id);
    expect(captured.statusCode).toBe(200);
    expect(captured.json()).toMatchObject({
      order: { status: 'completed', total_amount: 38080 },
      key: { api_key: key, pro: true },
    });
    await wallet.idle();
    expect(await tierOf(key)).toBe('PRO');
    expect(await receiptsTo('greta@example.de', key)).toHaveLength(1);
    const purchased = await t.app.inject({ url: '/keys/check_purchased_upgrades', headers: auth(token) });
    expect(purchased.json()).toMatchObject({
      stripe_upgrades: [expect.objectContaining({ upgrade_from: 'LITE', upgrade_to: 'PRO', source: 'paypal' })],
    });

    // A reload of the return URL captures again: the same answer, nothing more.
    const again = await capture(token, order.id);
    expect(again.statusCode).toBe(200);
    expect(again.json()).toMatchObject({ order: { status: 'completed' } });
    expect(await receiptsTo('greta@example.de', key)).toHaveLength(1);
  });

  it('Cancel returns to the exact cancel URL and stays cancelled: the page never approves it again, nothing is captured', async () => {
    const { token, id } = await newUser();
    const key = await keyFor(id);
    const { order } = (await createOrder(token, body(key))).json<Created>();
    const cancelled = await decide(order.id, 'cancel');
    expect(cancelled.statusCode).toBe(303);
    expect(cancelled.headers.location).toBe(`/customer/my-keys?paypalCancel=true&token=${order.id}`);
    const [standIn] = await t.db.select().from(sandboxPaypalOrders).where(eq(sandboxPaypalOrders.id, order.id));
    expect(standIn!.status).toBe('VOIDED');

    // Its approval page later (the back button, a kept link): no button, and approving is refused.
    const page = await t.app.inject({ url: `/sandbox/paypal/checkout?token=${order.id}` });
    expect(page.body).toContain('This checkout was cancelled.');
    expect(page.body).not.toContain('Approve payment');
    const approved = await decide(order.id, 'approve');
    expect(approved.statusCode).toBe(409);
    expect(approved.headers.location).toBeUndefined();
    expect(approved.body).toContain('This checkout was cancelled.');

    const captured = await capture(token, order.id);
    expect(captured.statusCode).toBe(409);
    expect(captured.json()).toEqual({
      error: 'This PayPal checkout was cancelled. Nothing was charged.',
      code: 'order_void',
    });
    const [after] = await t.db.select().from(sandboxPaypalOrders).where(eq(sandboxPaypalOrders.id, order.id));
    expect(after!.status).toBe('VOIDED');
    expect(await tierOf(key)).toBe('LITE');
  });

  it("the dashboard's cancel return voids the order for good, even if PayPal lets the payer approve it later", async () => {
    const { token, id } = await newUser();
    const key = await keyFor(id);
    const { order, quote } = (await createOrder(token, body(key))).json<Created>();
    const other = await newUser();
    expect(
      (
        await t.app.inject({
          method: 'POST',
          url: '/stripe/paypal/cancel-order',
          headers: auth(other.token),
          payload: { order_id: order.id },
        })
      ).statusCode,
    ).toBe(404);
    const cancelled = await t.app.inject({
      method: 'POST',
      url: '/stripe/paypal/cancel-order',
      headers: auth(token),
      payload: { order_id: order.id },
    });
    expect(cancelled.statusCode).toBe(200);
    expect(cancelled.json()).toMatchObject({ order: { id: quote.id, status: 'void' } });
    // At PayPal the order is still approvable (PayPal has no call to void it); Keyport never captures it.
    await t.db.update(sandboxPaypalOrders).set({ status: 'APPROVED' }).where(eq(sandboxPaypalOrders.id, order.id));
    const captured = await capture(token, order.id);
    expect(captured.statusCode).toBe(409);
    expect(captured.json()).toEqual({
      error: 'This PayPal checkout was cancelled. Nothing was charged.',
      code: 'order_void',
    });
    const [standIn] = await t.db.select().from(sandboxPaypalOrders).where(eq(sandboxPaypalOrders.id, order.id));
    expect(standIn!.status).toBe('APPROVED');
    expect(await tierOf(key)).toBe('LITE');
    // Pressing PayPal again starts a new checkout.
    const again = await createOrder(token, body(key));
    expect(again.json<Created>().order.id).not.toBe(order.id);
  });

  it('the approval page and its form refuse unknown or malformed tokens', async () => {
    expect((await t.app.inject({ url: '/sandbox/paypal/checkout?token=AAAAAAAAAAAAAAAAA' })).statusCode).toBe(404);
    expect((await t.app.inject({ url: '/sandbox/paypal/checkout?token=<script>' })).statusCode).toBe(400);
    expect((await decide('AAAAAAAAAAAAAAAAA', 'approve')).statusCode).toBe(404);
    const bad = await t.app.inject({
      method: 'POST',
      url: '/sandbox/paypal/checkout',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'token=AAAAAAAAAAAAAAAAA&action=steal',
    });
    expect(bad.statusCode).toBe(400);
  });
});

describe('POST /stripe/paypal/create-order: the card path checks', () => {
  it("answers 404 for another user's key and creates nothing", async () => {
    const owner = await newUser();
    const key = await keyFor(owner.id);
    const other = await newUser();
    const response = await createOrder(other.token, body(key));
    expect(response.statusCode).toBe(404);
    expect(await t.db.select().from(orders).where(eq(orders.licenseKey, key))).toHaveLength(0);
  });

  it("refuses a price id that is not the path's, a PRO key, and a bad body", async () => {
    const { token, id } = await newUser();
    const key = await keyFor(id);
    const wrongPrice = await createOrder(token, body(key, { price_id: 'price_sandbox_lite_to_regular' }));
    expect(wrongPrice.statusCode).toBe(400);
    expect(wrongPrice.json()).toMatchObject({ code: 'price_mismatch' });
    const noPrice = await createOrder(token, body(key, { price_id: '' }));
    expect(noPrice.statusCode).toBe(400);
    expect(noPrice.json()).toMatchObject({ error: 'No price configured' });

    const pro = await keyFor(id, 'PRO');
    const fromPro = await createOrder(token, body(pro));
    expect(fromPro.statusCode).toBe(400);
    expect(fromPro.json()).toMatchObject({ code: 'invalid_upgrade_path' });

    const missing = await createOrder(token, { price_id: 'price_sandbox_lite_to_pro', key });
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toMatchObject({ code: expect.any(String), error: expect.any(String) });
    const badEmail = await createOrder(token, body(key, { customer_email: 'nope' }));
    expect(badEmail.json()).toMatchObject({ error: 'Enter a valid email address' });
    const otherCountry = await createOrder(token, body(key, { country_code: 'FR' }));
    expect(otherCountry.statusCode).toBe(400);
    expect(await t.db.select().from(orders).where(eq(orders.licenseKey, key))).toHaveLength(0);
    expect(
      (await t.app.inject({ method: 'POST', url: '/stripe/paypal/create-order', payload: body(key) })).statusCode,
    ).toBe(401);
  });

  it('applies reverse charge for a business with a VIES-valid VAT ID (company name means business)', async () => {
    const { token, id } = await newUser();
    const key = await keyFor(id);
    const response = await createOrder(token, body(key, { company_name: 'Kunde GmbH', vat_id: 'DE 123 456 789' }));
    expect(response.statusCode).toBe(200);
    expect(response.json<Created>().quote).toMatchObject({ vat_amount: 0, total_amount: 32000, reverse_charge: true });
  });

  it('reuses the pending order and its PayPal order when pressed twice at once; another quote supersedes it', async () => {
    const { token, id } = await newUser();
    const key = await keyFor(id);
    const [first, second] = await Promise.all([createOrder(token, body(key)), createOrder(token, body(key))]);
    expect(first.statusCode).toBe(200);
    expect(second.statusCode).toBe(200);
    expect(first.json<Created>().order.id).toBe(second.json<Created>().order.id);
    const business = await createOrder(token, body(key, { company_name: 'Kunde GmbH', vat_id: 'DE 123 456 789' }));
    expect(business.json<Created>().order.id).not.toBe(first.json<Created>().order.id);
    const keyOrders = await t.db.select().from(orders).where(eq(orders.licenseKey, key));
    expect(keyOrders.map((order) => order.status).sort()).toEqual(['pending', 'superseded']);
    // The superseded order is never captured, even when approved.
    await decide(first.json<Created>().order.id, 'approve');
    const old = await capture(token, first.json<Created>().order.id);
    expect(old.statusCode).toBe(409);
    expect(old.json()).toEqual({
      error: 'This payment was replaced by a newer one. Nothing was charged.',
      code: 'order_superseded',
    });
  });

  it('a card payment started afterwards supersedes the PayPal order (one pending order per key)', async () => {
    const { token, id } = await newUser();
    const key = await keyFor(id);
    await createOrder(token, body(key));
    const card = await t.app.inject({
      method: 'POST',
      url: '/stripe/payment-intents',
      headers: auth(token),
      payload: {
        price_id: 'price_sandbox_lite_to_pro',
        theme_type: 'PRO',
        key,
        billing: {
          name: 'Greta Kunde',
          email: 'greta@example.de',
          address: { line1: 'Hauptstraße 1', city: 'Berlin', postal_code: '10115', country: 'DE' },
          is_business: false,
        },
      },
    });
    expect(card.statusCode).toBe(200);
    const keyOrders = await t.db.select().from(orders).where(eq(orders.licenseKey, key));
    expect(keyOrders.map((order) => [order.provider, order.status]).sort()).toEqual([
      ['paypal_sandbox', 'superseded'],
      ['sandbox', 'pending'],
    ]);
  });
});

describe('POST /stripe/paypal/capture-order', () => {
  it("answers 404 for another user's order and an unknown one", async () => {
    const { ref, key } = await approvedOrder();
    const other = await newUser();
    const response = await capture(other.token, ref);
    expect(response.statusCode).toBe(404);
    expect((await capture(other.token, 'AAAAAAAAAAAAAAAAA')).statusCode).toBe(404);
    expect((await capture(other.token, 'not an id!')).statusCode).toBe(400);
    expect(await tierOf(key)).toBe('LITE');
    const [standIn] = await t.db.select().from(sandboxPaypalOrders).where(eq(sandboxPaypalOrders.id, ref));
    expect(standIn!.status).toBe('APPROVED');
  });

  it('refuses an order whose amount at PayPal differs from ours: flagged, nothing captured or applied', async () => {
    const { token, ref, key } = await approvedOrder();
    await t.db.update(sandboxPaypalOrders).set({ amountCents: 100 }).where(eq(sandboxPaypalOrders.id, ref));
    const response = await capture(token, ref);
    expect(response.statusCode).toBe(409);
    expect(response.json()).toEqual({ error: 'Capture failed', code: 'amount_mismatch' });
    const [order] = await t.db.select().from(orders).where(eq(orders.providerPaymentId, ref));
    expect(order).toMatchObject({ status: 'review' });
    expect(order!.processingError).toContain('does not match');
    const [standIn] = await t.db.select().from(sandboxPaypalOrders).where(eq(sandboxPaypalOrders.id, ref));
    expect(standIn!.status).toBe('APPROVED');
    expect(await tierOf(key)).toBe('LITE');
    expect((await capture(token, ref)).statusCode).toBe(409);
  });

  it('20 concurrent captures with the webhook in between: one capture, one tier change, one receipt', async () => {
    const { token, ref, key } = await approvedOrder();
    const before = delivered.length;
    const responses = await Promise.all(Array.from({ length: 20 }, () => capture(token, ref)));
    for (const response of responses) {
      expect(response.statusCode).toBe(200);
      expect(response.json()).toMatchObject({ order: { status: 'completed' } });
    }
    await wallet.idle();
    const events = delivered.slice(before).filter((entry) => entry.raw.includes('PAYMENT.CAPTURE.COMPLETED'));
    expect(events).toHaveLength(1); // the sandbox captured once
    // The same event again, shuffled with more captures.
    const replays = await Promise.all(
      [
        ...Array.from({ length: 5 }, () =>
          sendWebhook(events[0]!.raw, signSandboxPaypalEvent(events[0]!.raw, WEBHOOK_SECRET, new Date())),
        ),
        ...Array.from({ length: 5 }, () => capture(token, ref)),
      ].sort(() => Math.random() - 0.5),
    );
    for (const response of replays) expect(response.statusCode).toBe(200);

    const [keyRow] = await t.db.select().from(licenseKeys).where(eq(licenseKeys.apiKey, key));
    expect(keyRow!.tier).toBe('PRO');
    expect(
      await t.db.select().from(licenseKeyTierChanges).where(eq(licenseKeyTierChanges.licenseKeyId, keyRow!.id)),
    ).toHaveLength(1);
    expect(
      await t.db.select().from(purchasedUpgrades).where(eq(purchasedUpgrades.licenseKeyId, keyRow!.id)),
    ).toHaveLength(1);
    expect(await receiptsTo('greta@example.de', key)).toHaveLength(1);
  });
});

describe('POST /paypal/webhook (and its first path, /stripe/paypal/webhook)', () => {
  const event = (type: string, orderRef: string, id = `WH-TEST-${Math.random().toString(36).slice(2)}`) =>
    JSON.stringify({
      id,
      event_type: type,
      resource: { id: 'CAPTURE1', supplementary_data: { related_ids: { order_id: orderRef } } },
    });

  it.each(WEBHOOK_PATHS)(
    'answers 400 at %s to a bad or missing signature, a stale one, and a body that is not an event',
    async (url) => {
      const raw = event('PAYMENT.CAPTURE.COMPLETED', 'AAAAAAAAAAAAAAAAA');
      const forged = { ...signSandboxPaypalEvent(raw, 'another secret', new Date()) };
      const response = await sendWebhook(raw, forged, url);
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({ error: 'Invalid webhook signature.', code: 'invalid_signature' });
      expect((await sendWebhook(raw, { 'content-type': 'application/json' }, url)).statusCode).toBe(400);
      const stale = signSandboxPaypalEvent(raw, WEBHOOK_SECRET, new Date(Date.now() - 3_600_000));
      expect((await sendWebhook(raw, stale, url)).statusCode).toBe(400);
      const tampered = signSandboxPaypalEvent(raw, WEBHOOK_SECRET, new Date());
      expect((await sendWebhook(raw.replace('CAPTURE1', 'CAPTURE2'), tampered, url)).statusCode).toBe(400);
      const notJson = 'not json';
      expect(
        (await sendWebhook(notJson, signSandboxPaypalEvent(notJson, WEBHOOK_SECRET, new Date()), url)).statusCode,
      ).toBe(400);
    },
  );

  it('settles a captured order from PAYMENT.CAPTURE.COMPLETED and ignores a duplicate event, at either path', async () => {
    const { ref, key } = await approvedOrder();
    // Captured at the wallet, the browser gone: only the webhook tells the portal.
    await t.db
      .update(sandboxPaypalOrders)
      .set({ status: 'COMPLETED', captureId: `CAP${ref.slice(3)}`, captureStatus: 'COMPLETED', capturedCents: 38080 })
      .where(eq(sandboxPaypalOrders.id, ref));
    const raw = event('PAYMENT.CAPTURE.COMPLETED', ref, `WH-DUP-${ref}`);
    const first = await sendWebhook(raw, signSandboxPaypalEvent(raw, WEBHOOK_SECRET, new Date()));
    expect(first.statusCode).toBe(200);
    expect(first.json()).toEqual({ received: true, duplicate: false });
    expect(await tierOf(key)).toBe('PRO');
    // The same event at the first path is the same handler's duplicate.
    const second = await sendWebhook(raw, signSandboxPaypalEvent(raw, WEBHOOK_SECRET, new Date()), WEBHOOK_PATHS[1]);
    expect(second.statusCode).toBe(200);
    expect(second.json()).toEqual({ received: true, duplicate: true });
    expect(
      await t.db
        .select()
        .from(paymentWebhookEvents)
        .where(eq(paymentWebhookEvents.eventId, `WH-DUP-${ref}`)),
    ).toEqual([expect.objectContaining({ provider: 'paypal_sandbox', type: 'PAYMENT.CAPTURE.COMPLETED' })]);
  });

  it.each(WEBHOOK_PATHS)('answers 200 at %s and does nothing for other event types', async (url) => {
    const raw = event('CHECKOUT.ORDER.APPROVED', 'AAAAAAAAAAAAAAAAA');
    const response = await sendWebhook(raw, signSandboxPaypalEvent(raw, WEBHOOK_SECRET, new Date()), url);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ received: true, duplicate: false });
  });
});

describe('refunds through PAYMENT.CAPTURE.REFUNDED', () => {
  it('a full refund marks the order refunded and puts the tier back; a partial one keeps the upgrade', async () => {
    const { token, ref, key } = await approvedOrder();
    expect((await capture(token, ref)).statusCode).toBe(200);
    await wallet.idle();
    expect(await tierOf(key)).toBe('PRO');

    await wallet.refundCapture(ref, 1_000);
    await wallet.idle();
    expect(await tierOf(key)).toBe('PRO');
    const [partial] = await t.db.select().from(orders).where(eq(orders.providerPaymentId, ref));
    expect(partial!.status).toBe('completed');

    await wallet.refundCapture(ref, 37_080);
    await wallet.idle();
    expect(await tierOf(key)).toBe('LITE');
    const [order] = await t.db.select().from(orders).where(eq(orders.providerPaymentId, ref));
    expect(order!.status).toBe('refunded');
    await expect(wallet.refundCapture(ref, 1)).rejects.toThrow(/greater than what remains/);
  });

  it('keeps the tier when the key changed since the purchase', async () => {
    const { token, ref, key } = await approvedOrder('LITE', {
      price_id: 'price_sandbox_lite_to_regular',
      theme_type: 'REGULAR',
    });
    expect((await capture(token, ref)).statusCode).toBe(200);
    await wallet.idle();
    expect(await tierOf(key)).toBe('REGULAR');
    // Upgraded again since (here: straight in the table, standing in for a later REGULAR→PRO purchase).
    await t.db.update(licenseKeys).set({ tier: 'PRO' }).where(eq(licenseKeys.apiKey, key));
    await wallet.refundCapture(ref, 14_280);
    await wallet.idle();
    const [order] = await t.db.select().from(orders).where(eq(orders.providerPaymentId, ref));
    expect(order!.status).toBe('refunded');
    expect(await tierOf(key)).toBe('PRO');
  });
});

describe('after the sale, the same as a card purchase', () => {
  it('a PayPal purchase gets its invoice, audit rows and analytics event; its refund a credit note', async () => {
    const { id: userId, token, ref } = await approvedOrder();
    const captured = await capture(token, ref);
    expect(captured.statusCode).toBe(200);
    await wallet.idle();
    const orderId = captured.json<{ order: { id: number } }>().order.id;

    const docs = () => t.db.select().from(invoices).where(eq(invoices.orderId, orderId));
    const [invoice] = await docs();
    expect(invoice).toMatchObject({ kind: 'invoice', provider: 'paypal_sandbox', providerPaymentId: ref });
    expect(invoice!.number).toMatch(/^\d{4}-\d{6}$/);
    const [event] = await t.db
      .select()
      .from(analyticsOutbox)
      .where(and(eq(analyticsOutbox.userId, userId), eq(analyticsOutbox.name, 'Completed Upgrade Purchase')));
    expect(event!.uniqueId).toBe(`upgrade-order-${orderId}`);
    expect(event!.payload.properties).toMatchObject({ payment_method: 'paypal' });

    await wallet.refundCapture(ref, invoice!.totalCents);
    await wallet.idle();
    const kinds = (await docs()).map((doc) => doc.kind).sort();
    expect(kinds).toEqual(['credit_note', 'invoice']);
    const actions = (
      await t.db
        .select()
        .from(auditLog)
        .where(eq(auditLog.objectId, String(orderId)))
    ).map((row) => row.action);
    expect(actions).toEqual(expect.arrayContaining(['order.completed', 'order.refunded']));
  });
});
