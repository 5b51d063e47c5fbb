import { and, eq, like } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  emailOutbox,
  licenseKeys,
  licenseKeyTierChanges,
  purchasedUpgrades,
  sandboxPayments,
  orders,
} from '../src/db/schema';
import {
  createSandboxPaymentProvider,
  type SandboxPaymentProvider,
} from '../src/integrations/payments/sandbox-adapter';
import { signStripePayload } from '../src/integrations/payments/stripe-webhook';
import { QUICK_SANDBOX_RETRY, testJobs } from './helpers/jobs';
import { auth, createTestApp, getTestDatabase, signUp, type TestApp } from './helpers/test-app';
import { GERMAN_CONSUMER, ownedKey, tierOf as tierOfKey } from './helpers/keys';

const WEBHOOK_SECRET = 'whsec_test_payments_suite';

let t: TestApp;
let provider: SandboxPaymentProvider;
let people = 0;
/** Every event the sandbox delivered, as it sent it (raw body and signature), for the replay tests. */
const delivered: { raw: string; signature: string }[] = [];

beforeAll(async () => {
  const { db } = await getTestDatabase();
  // The sandbox exactly as services.ts builds it, with a known webhook secret so the tests can sign events too; its
  // deliveries go through the app's own webhook route.
  provider = createSandboxPaymentProvider({
    db,
    webhookSecret: WEBHOOK_SECRET,
    jobs: testJobs(db),
    retry: QUICK_SANDBOX_RETRY,
    deliver: async (raw, signature) => {
      delivered.push({ raw, signature });
      const response = await t.app.inject({
        method: 'POST',
        url: '/stripe/webhook',
        headers: { 'content-type': 'application/json', 'stripe-signature': signature },
        payload: raw,
      });
      return { statusCode: response.statusCode };
    },
  });
  t = await createTestApp({}, { payments: provider });
});

let ips = 0;
const newUser = (label = 'payer') =>
  signUp(t, `${label}-${++people}@example.com`, { ip: `10.40.${Math.floor(++ips / 250)}.${(ips % 250) + 1}` });

const liteKeyFor = (userId: number) => ownedKey(t, userId, 'LITE');

const tierOf = (apiKey: string) => tierOfKey(t, apiKey);

const GERMAN_BUSINESS = { ...GERMAN_CONSUMER, is_business: true, company_name: 'Kunde GmbH', vat_id: 'DE 123 456 789' };

const startPayment = (token: string, key: string, billing: object = GERMAN_CONSUMER, extra: object = {}) =>
  t.app.inject({
    method: 'POST',
    url: '/stripe/payment-intents',
    headers: auth(token),
    payload: { price_id: 'price_sandbox_lite_to_regular', theme_type: 'REGULAR', key, billing, ...extra },
  });

const confirm = (token: string, paymentIntentId: string, cardNumber = '4242 4242 4242 4242') =>
  t.app.inject({
    method: 'POST',
    url: '/sandbox/stripe/confirm',
    headers: auth(token),
    payload: { payment_intent_id: paymentIntentId, card_number: cardNumber },
  });

const sync = (token: string, paymentIntentId: string) =>
  t.app.inject({ method: 'POST', url: `/stripe/payment-intents/${paymentIntentId}/sync`, headers: auth(token) });

type Started = {
  payment_intent: { id: string; client_secret: string };
  order: Record<string, unknown> & { id: number };
};

const sendWebhook = (raw: string, signature?: string) =>
  t.app.inject({
    method: 'POST',
    url: '/stripe/webhook',
    headers: { 'content-type': 'application/json', ...(signature ? { 'stripe-signature': signature } : {}) },
    payload: raw,
  });

const receiptsTo = async (email: string) =>
  t.db
    .select()
    .from(emailOutbox)
    .where(and(eq(emailOutbox.to, email), like(emailOutbox.subject, 'Your Keyport receipt%')));

describe('GET /stripe/config', () => {
  it('answers the publishable key without a session', async () => {
    const response = await t.app.inject({ url: '/stripe/config' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ publishableKey: 'pk_sandbox_keyport' });
  });
});

describe('a LITE→REGULAR upgrade by card (sandbox), end to end', () => {
  it('charges a German consumer 19% VAT computed on the server, ignoring amounts the client sends', async () => {
    const { token, id } = await newUser();
    const key = await liteKeyFor(id);
    // Amounts sent by the browser (in metadata, or as extra fields the contract drops) change nothing.
    const response = await startPayment(token, key, GERMAN_CONSUMER, {
      metadata: { amount: 1, total_amount: 1, price: 1 },
      amount: 1,
      total_amount: 1,
    });
    expect(response.statusCode).toBe(200);
    const body = response.json<Started>();
    expect(body.payment_intent.id).toMatch(/^pi_/);
    expect(body.payment_intent.client_secret).toContain('_secret_');
    expect(body.order).toMatchObject({
      status: 'pending',
      from: 'LITE',
      to: 'REGULAR',
      currency: 'usd',
      base_amount: 12000,
      vat_amount: 2280,
      total_amount: 14280,
      vat_rate: 19,
      reverse_charge: false,
    });
    const [payment] = await t.db.select().from(sandboxPayments).where(eq(sandboxPayments.id, body.payment_intent.id));
    expect(payment).toMatchObject({ amountCents: 14280, currency: 'usd' });

    // The card is authorized (manual capture); the sync captures it once the upgrade is checked.
    expect((await confirm(token, body.payment_intent.id)).json()).toEqual({ status: 'requires_capture' });
    await provider.idle();
    const synced = await sync(token, body.payment_intent.id);
    expect(synced.statusCode).toBe(200);
    expect(synced.json()).toMatchObject({
      order: { status: 'completed', total_amount: 14280 },
      key: { api_key: key, lite: false, pro: false },
    });
    expect(await tierOf(key)).toBe('REGULAR');
    expect(await receiptsTo(GERMAN_CONSUMER.email)).toHaveLength(1);

    const purchased = await t.app.inject({ url: '/keys/check_purchased_upgrades', headers: auth(token) });
    expect(purchased.json()).toMatchObject({
      stripe_upgrades: [
        expect.objectContaining({
          upgrade_from: 'LITE',
          upgrade_to: 'REGULAR',
          source: 'card',
          amount_paid: 14280,
          vat_amount: 2280,
        }),
      ],
    });

    const receipt = await t.app.inject({ url: `/upgrades/orders/${body.order.id}/receipt`, headers: auth(token) });
    expect(receipt.statusCode).toBe(200);
    expect(receipt.headers['content-type']).toBe('application/pdf');
    expect(receipt.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    // The invoice itself, named as GET /invoices/:id/pdf names it (issue 21: no separate "receipt" document).
    expect(receipt.headers['content-disposition']).toMatch(/^attachment; filename="keyport-invoice-\d{4}-\d{6}\.pdf"$/);
  });

  it('applies reverse charge for a German business with a VIES-valid German VAT ID: $120.00 in total', async () => {
    const { token, id } = await newUser();
    const key = await liteKeyFor(id);
    const response = await startPayment(token, key, GERMAN_BUSINESS);
    expect(response.statusCode).toBe(200);
    expect(response.json<Started>().order).toMatchObject({
      base_amount: 12000,
      vat_amount: 0,
      total_amount: 12000,
      reverse_charge: true,
    });
    const [order] = await t.db
      .select()
      .from(orders)
      .where(eq(orders.id, response.json<Started>().order.id));
    // The VIES answer is kept on the order as evidence.
    expect(JSON.stringify(order)).toContain('DE123456789');
  });

  it('charges VAT when the VAT ID is not of the billing country, or is not registered', async () => {
    const { token, id } = await newUser();
    const key = await liteKeyFor(id);
    const french = { ...GERMAN_BUSINESS, address: { ...GERMAN_BUSINESS.address, country: 'FR' } };
    const mismatch = await startPayment(token, key, french);
    expect(mismatch.json<Started>().order).toMatchObject({
      reverse_charge: false,
      vat_amount: 2400,
      total_amount: 14400,
    });
    const unregistered = await startPayment(token, key, { ...GERMAN_BUSINESS, vat_id: 'DE123456000' });
    expect(unregistered.json<Started>().order).toMatchObject({ reverse_charge: false, vat_amount: 2280 });
  });

  it("says a declined card's message, keeps the key, and lets the person pay with another card", async () => {
    const { token, id } = await newUser();
    const key = await liteKeyFor(id);
    const { payment_intent } = (await startPayment(token, key)).json<Started>();
    const declined = await confirm(token, payment_intent.id, '4000 0000 0000 0002');
    expect(declined.statusCode).toBe(402);
    expect(declined.json()).toEqual({ error: 'Your card was declined.', code: 'card_declined' });
    await provider.idle();
    expect(await tierOf(key)).toBe('LITE');
    const [order] = await t.db
      .select()
      .from(orders)
      .where(eq(orders.providerPaymentId, payment_intent.id));
    expect(order).toMatchObject({ status: 'pending' });

    const insufficient = await confirm(token, payment_intent.id, '4000000000009995');
    expect(insufficient.json()).toMatchObject({ code: 'insufficient_funds' });
    expect((await confirm(token, payment_intent.id)).statusCode).toBe(200);
    await provider.idle();
    expect(await tierOf(key)).toBe('REGULAR');
  });

  it('reuses the pending order and its payment when Pay is pressed twice at once', async () => {
    const { token, id } = await newUser();
    const key = await liteKeyFor(id);
    const [first, second] = await Promise.all([startPayment(token, key), startPayment(token, key)]);
    expect(first.statusCode).toBe(200);
    expect(second.statusCode).toBe(200);
    expect(first.json<Started>().payment_intent.id).toBe(second.json<Started>().payment_intent.id);
    const keyOrders = await t.db.select().from(orders).where(eq(orders.licenseKey, key));
    expect(keyOrders.filter((order) => order.status === 'pending')).toHaveLength(1);
  });

  it("refuses a price id that is not the path's, and a path the key cannot take", async () => {
    const { token, id } = await newUser();
    const key = await liteKeyFor(id);
    const wrongPrice = await startPayment(token, key, GERMAN_CONSUMER, { price_id: 'price_sandbox_lite_to_pro' });
    expect(wrongPrice.statusCode).toBe(400);
    const toLite = await startPayment(token, key, GERMAN_CONSUMER, { theme_type: 'LITE' });
    expect(toLite.statusCode).toBe(400);
    expect(await t.db.select().from(orders).where(eq(orders.licenseKey, key))).toHaveLength(0);
  });
});

describe('fulfilment happens exactly once', () => {
  it('the same success event 10 times in parallel, shuffled with syncs: one tier change, one record, one email', async () => {
    const { token, id } = await newUser();
    const key = await liteKeyFor(id);
    const { payment_intent } = (await startPayment(token, key)).json<Started>();
    const before = delivered.length;
    // The sandbox delivers its event once (and fulfils); the test then replays that exact delivery.
    expect((await confirm(token, payment_intent.id)).statusCode).toBe(200);
    await provider.idle();
    const event = delivered.slice(before).find((entry) => entry.raw.includes('payment_intent.succeeded'));
    expect(event).toBeDefined();

    const calls = [
      ...Array.from({ length: 10 }, () => sendWebhook(event!.raw, event!.signature)),
      ...Array.from({ length: 5 }, () => sync(token, payment_intent.id)),
    ].sort(() => Math.random() - 0.5);
    const responses = await Promise.all(calls);
    for (const response of responses) expect(response.statusCode).toBe(200);

    const [keyRow] = await t.db.select().from(licenseKeys).where(eq(licenseKeys.apiKey, key));
    expect(keyRow!.tier).toBe('REGULAR');
    expect(
      await t.db.select().from(licenseKeyTierChanges).where(eq(licenseKeyTierChanges.licenseKeyId, keyRow!.id)),
    ).toHaveLength(1);
    expect(
      await t.db.select().from(purchasedUpgrades).where(eq(purchasedUpgrades.licenseKeyId, keyRow!.id)),
    ).toHaveLength(1);
    const receipts = (await receiptsTo(GERMAN_CONSUMER.email)).filter((row) =>
      row.body.includes(`license ${key} is now`),
    );
    expect(receipts).toHaveLength(1);
  });

  it('does not fulfil a payment whose amount differs from its order: the order is flagged for review', async () => {
    const { token, id } = await newUser();
    const key = await liteKeyFor(id);
    const { payment_intent } = (await startPayment(token, key)).json<Started>();
    // The provider reports another amount than the order's (a tampered or mismatched payment).
    await t.db.update(sandboxPayments).set({ amountCents: 100 }).where(eq(sandboxPayments.id, payment_intent.id));
    await confirm(token, payment_intent.id);
    await provider.idle();
    await sync(token, payment_intent.id);
    expect(await tierOf(key)).toBe('LITE');
    const [order] = await t.db
      .select()
      .from(orders)
      .where(eq(orders.providerPaymentId, payment_intent.id));
    expect(order!.status).toBe('review');
  });

  it('a full refund marks the order refunded and puts the tier back', async () => {
    const { token, id } = await newUser();
    const key = await liteKeyFor(id);
    const { payment_intent } = (await startPayment(token, key)).json<Started>();
    await confirm(token, payment_intent.id);
    await provider.idle();
    expect(await tierOf(key)).toBe('REGULAR');
    await provider.refundPayment(payment_intent.id, 14280);
    await provider.idle();
    expect(await tierOf(key)).toBe('LITE');
    const [order] = await t.db
      .select()
      .from(orders)
      .where(eq(orders.providerPaymentId, payment_intent.id));
    expect(order!.status).toBe('refunded');
  });
});

describe('POST /stripe/webhook refuses what it cannot verify', () => {
  const event = (type: string, id = `evt_test_${Math.random().toString(36).slice(2)}`) =>
    JSON.stringify({
      id,
      object: 'event',
      type,
      data: { object: { id: 'pi_sandbox_unknown', object: 'payment_intent' } },
    });
  const now = () => Math.floor(Date.now() / 1000);

  it('answers 400 invalid_signature without a header, with a wrong secret, an altered body or an old timestamp', async () => {
    const raw = event('payment_intent.succeeded');
    const forged = [
      await sendWebhook(raw),
      await sendWebhook(raw, signStripePayload(raw, 'whsec_wrong', now())),
      await sendWebhook(
        raw.replace('pi_sandbox_unknown', 'pi_sandbox_other'),
        signStripePayload(raw, WEBHOOK_SECRET, now()),
      ),
      await sendWebhook(raw, signStripePayload(raw, WEBHOOK_SECRET, now() - 3600)),
      await sendWebhook('not json', signStripePayload('not json', WEBHOOK_SECRET, now())),
    ];
    for (const response of forged) {
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({ error: expect.any(String), code: 'invalid_signature' });
    }
  });

  it('acknowledges an event type it does not handle, and dedupes a replay', async () => {
    const unknown = event('customer.created');
    const ignored = await sendWebhook(unknown, signStripePayload(unknown, WEBHOOK_SECRET, now()));
    expect(ignored.statusCode).toBe(200);
    expect(ignored.json()).toEqual({ received: true, duplicate: false });
  });
});

describe('ownership: another user never reaches a payment', () => {
  it("answers 404 on start, sync, confirm and receipt for what is not the caller's", async () => {
    const owner = await newUser('owner');
    const stranger = await newUser('stranger');
    const key = await liteKeyFor(owner.id);
    const started = await startPayment(stranger.token, key);
    expect(started.statusCode).toBe(404);
    expect(started.json()).toEqual({ error: 'License key not found.', code: 'key_not_found' });

    const { payment_intent, order } = (await startPayment(owner.token, key)).json<Started>();
    expect((await sync(stranger.token, payment_intent.id)).statusCode).toBe(404);
    expect((await confirm(stranger.token, payment_intent.id)).statusCode).toBe(404);
    await confirm(owner.token, payment_intent.id);
    await provider.idle();
    const receipt = await t.app.inject({ url: `/upgrades/orders/${order.id}/receipt`, headers: auth(stranger.token) });
    expect(receipt.statusCode).toBe(404);
    const vat = await t.app.inject({
      method: 'POST',
      url: '/stripe/vat/verify',
      payload: { vat_number: 'DE123456789' },
    });
    expect(vat.statusCode).toBe(401);
  });
});

describe('VAT routes', () => {
  it('verifies VAT numbers through the VIES port, with the spec texts', async () => {
    const { token } = await newUser();
    const verify = (vat_number: string) =>
      t.app.inject({ method: 'POST', url: '/stripe/vat/verify', headers: auth(token), payload: { vat_number } });
    expect((await verify('DE123456789')).json()).toMatchObject({
      valid: true,
      vat_number: 'DE123456789',
      country_code: 'DE',
      company_name: 'Keyport Sandbox GmbH',
    });
    expect((await verify('DE123456000')).json()).toMatchObject({ valid: false, message: 'VAT number is not valid' });
    expect((await verify('DE12345')).json()).toMatchObject({ valid: false, message: 'VAT number is not valid' });
    const unavailable = await verify('DE999999999');
    expect(unavailable.statusCode).toBe(503);
    expect(unavailable.json()).toMatchObject({ error: 'Failed to verify VAT number. Please try again.' });
    const blank = await verify('  ');
    expect(blank.statusCode).toBe(400);
    expect(blank.json()).toMatchObject({ error: 'Please enter a VAT number' });
  });

  it('calculates VAT in cents on the server', async () => {
    const { token } = await newUser();
    const calculate = (payload: object) =>
      t.app.inject({ method: 'POST', url: '/stripe/vat/calculate', headers: auth(token), payload });
    expect((await calculate({ amount: 12000, country_code: 'DE', is_business: false })).json()).toEqual({
      base_amount: 12000,
      vat_amount: 2280,
      total_amount: 14280,
      vat_rate: 19,
      reverse_charge: false,
    });
    expect(
      (await calculate({ amount: 12000, country_code: 'DE', is_business: true, vat_id: 'DE123456789' })).json(),
    ).toMatchObject({ vat_amount: 0, total_amount: 12000, reverse_charge: true });
    expect((await calculate({ amount: 12000, country_code: 'US', is_business: false })).json()).toMatchObject({
      vat_amount: 0,
      total_amount: 12000,
    });
  });

  it('lists every country, sorted by name, without a session', async () => {
    const response = await t.app.inject({ url: '/countries' });
    const { countries } = response.json<{ countries: { code: string; name: string }[] }>();
    expect(countries.length).toBeGreaterThan(200);
    expect(countries.map((country) => country.code)).toEqual(expect.arrayContaining(['US', 'DE', 'GB', 'FR']));
    const names = countries.map((country) => country.name);
    expect([...names].sort((a, b) => a.localeCompare(b, 'en'))).toEqual(names);
  });

  it('names each country as people type it: China under C, Iran under I, Gambia under G, North Macedonia under N', async () => {
    const { countries } = (await t.app.inject({ url: '/countries' })).json<{
      countries: { code: string; name: string }[];
    }>();
    const name = (code: string) => countries.find((country) => country.code === code)?.name;
    expect(['CN', 'IR', 'GM', 'MK', 'RU', 'TZ', 'US', 'DE'].map(name)).toEqual([
      'China',
      'Iran',
      'Gambia',
      'North Macedonia',
      'Russia',
      'Tanzania',
      'United States',
      'Germany',
    ]);
    // A select jumps to the letter typed: no name hides behind an article or a form of government.
    const hidden = countries.filter((country) =>
      /^(The |Republic |Islamic |People's |State of |United Republic )/.test(country.name),
    );
    expect(hidden).toEqual([]);
  });
});
