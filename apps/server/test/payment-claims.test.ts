/**
 * Issue 19: never charge for an upgrade that no longer applies, never charge twice. A capture (PayPal's, or a card's:
 * cards are authorized and captured by the server) needs a claim that checks, in the database with the key's row
 * locked, that the order is still the key's open one and its upgrade still applies; a token redemption takes the same
 * lock, is refused while a capture is under way and voids the key's pending order.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sandboxPaypalOrders, sandboxPayments, orders, upgradeTokens } from '../src/db/schema';
import {
  createSandboxPaymentProvider,
  type SandboxPaymentProvider,
} from '../src/integrations/payments/sandbox-adapter';
import { createSandboxPaypalProvider, type SandboxPaypalProvider } from '../src/integrations/paypal/sandbox-adapter';
import { hashSecret } from '../src/lib/secrets';
import type { Jobs } from '../src/modules/jobs/jobs.service';
import { startedTestJobs } from './helpers/jobs';
import { auth, createTestApp, getTestDatabase, signUp, type TestApp } from './helpers/test-app';
import { GERMAN_CONSUMER, ownedKey, paypalOrderBody, tierOf as tierOfKey } from './helpers/keys';

let t: TestApp;
let card: SandboxPaymentProvider;
/** While set, cancelling a card payment at the sandbox waits for it (a slow provider). */
let cancelGate: Promise<void> | null = null;
/** What happened, in order: the provider finished a cancel, the server answered a request. */
const sequence: string[] = [];
let wallet: SandboxPaypalProvider;
/** While set, the card sandbox's events wait here instead of reaching the webhook (a slow or lost delivery). */
let heldCardEvents: (() => Promise<void>)[] | null = null;
/** While set, a PayPal capture waits for this before reaching the sandbox wallet (a capture in flight). */
let captureGate: Promise<void> | null = null;
let captureStarted: (() => void) | null = null;

let jobs: Jobs;
afterAll(() => jobs.stop());

beforeAll(async () => {
  const { db } = await getTestDatabase();
  jobs = startedTestJobs(db);
  const sandboxCard = createSandboxPaymentProvider({
    db,
    webhookSecret: 'whsec_payment_claims',
    jobs,
    retry: { maxAttempts: 2, backoff: { baseMs: 10, maxMs: 10 } },
    deliver: async (raw, signature) => {
      const send = async () => {
        await t.app.inject({
          method: 'POST',
          url: '/stripe/webhook',
          headers: { 'content-type': 'application/json', 'stripe-signature': signature },
          payload: raw,
        });
      };
      if (heldCardEvents) heldCardEvents.push(send);
      else await send();
      return { statusCode: 200 };
    },
  });
  card = {
    ...sandboxCard,
    async cancelPayment(ref) {
      if (cancelGate) await cancelGate;
      await sandboxCard.cancelPayment(ref);
      sequence.push(`cancelled ${ref}`);
    },
  };
  const sandboxPaypal = createSandboxPaypalProvider({
    db,
    webhookSecret: 'paypal_payment_claims',
    jobs,
    retry: { maxAttempts: 2, backoff: { baseMs: 10, maxMs: 10 } },
    deliver: async (raw, headers) => {
      const response = await t.app.inject({ method: 'POST', url: '/paypal/webhook', headers, payload: raw });
      return { statusCode: response.statusCode };
    },
  });
  wallet = {
    ...sandboxPaypal,
    async captureOrder(ref, requestId) {
      captureStarted?.();
      if (captureGate) await captureGate;
      return sandboxPaypal.captureOrder(ref, requestId);
    },
  };
  t = await createTestApp({ UPGRADE_TOKEN_RATE_LIMIT_MAX: '1000' }, { payments: card, paypal: wallet });
});

let people = 0;
const newUser = () => signUp(t, `claims-${++people}@example.com`, { ip: `10.61.${people >> 8}.${people & 255}` });
const tierOf = (apiKey: string) => tierOfKey(t, apiKey);

async function mintToken(path: 'LITE_TO_REGULAR' | 'LITE_TO_PRO'): Promise<string> {
  const staff = await signUp(t, `claims-staff-${++people}@example.com`, {
    role: 'staff',
    ip: `10.62.${people >> 8}.${people & 255}`,
  });
  const response = await t.app.inject({
    method: 'POST',
    url: '/staff/upgrade-tokens',
    headers: auth(staff.token),
    payload: { path, count: 1, reason: 'claims test' },
  });
  return response.json<{ tokens: string[] }>().tokens[0]!;
}

const redeem = (token: string, route: 'regular' | 'l2p', upgradeKey: string, licenseKey: string) =>
  t.app.inject({
    method: 'POST',
    url: `/keys/upgrade/${route}`,
    headers: auth(token),
    payload: { upgradeKey, licenseKey },
  });

const createPaypal = (token: string, key: string) =>
  t.app.inject({
    method: 'POST',
    url: '/stripe/paypal/create-order',
    headers: auth(token),
    payload: paypalOrderBody(key),
  });
const approve = (ref: string) =>
  t.app.inject({
    method: 'POST',
    url: '/sandbox/paypal/checkout',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({ token: ref, action: 'approve' }).toString(),
  });
const capture = (token: string, ref: string) =>
  t.app.inject({
    method: 'POST',
    url: '/stripe/paypal/capture-order',
    headers: auth(token),
    payload: { order_id: ref },
  });
const startCard = (token: string, key: string, billing: object = GERMAN_CONSUMER) =>
  t.app.inject({
    method: 'POST',
    url: '/stripe/payment-intents',
    headers: auth(token),
    payload: { price_id: 'price_sandbox_lite_to_pro', theme_type: 'PRO', key, billing },
  });
const confirm = (token: string, ref: string) =>
  t.app.inject({
    method: 'POST',
    url: '/sandbox/stripe/confirm',
    headers: auth(token),
    payload: { payment_intent_id: ref, card_number: '4242 4242 4242 4242' },
  });
const sync = (token: string, ref: string) =>
  t.app.inject({ method: 'POST', url: `/stripe/payment-intents/${ref}/sync`, headers: auth(token) });

const ordersOf = (key: string) => t.db.select().from(orders).where(eq(orders.licenseKey, key));
const paypalOrder = async (ref: string) =>
  (await t.db.select().from(sandboxPaypalOrders).where(eq(sandboxPaypalOrders.id, ref)))[0]!;
const cardPayment = async (ref: string) =>
  (await t.db.select().from(sandboxPayments).where(eq(sandboxPayments.id, ref)))[0]!;

const NOT_APPLICABLE_REGULAR = 'This upgrade no longer applies: the license is REGULAR now. Nothing was charged.';

describe('PayPal: the capture re-checks the upgrade in the database', () => {
  it('approve LITE→PRO, redeem a LITE→REGULAR token, capture: nothing is captured, the order is void, and says why', async () => {
    const { token, id } = await newUser();
    const key = await ownedKey(t, id, 'LITE');
    const { order } = (await createPaypal(token, key)).json<{ order: { id: string } }>();
    expect((await approve(order.id)).statusCode).toBe(303);

    const redeemed = await redeem(token, 'regular', await mintToken('LITE_TO_REGULAR'), key);
    expect(redeemed.statusCode).toBe(200);
    expect(await tierOf(key)).toBe('REGULAR');

    const captured = await capture(token, order.id);
    expect(captured.statusCode).toBe(409);
    expect(captured.json()).toEqual({ error: NOT_APPLICABLE_REGULAR, code: 'order_void' });
    await wallet.idle();
    expect((await paypalOrder(order.id)).status).toBe('APPROVED'); // never captured: no money taken
    const orders = await ordersOf(key);
    expect(orders.map((row) => [row.status, row.processingError])).toEqual([['void', NOT_APPLICABLE_REGULAR]]);
    expect(await tierOf(key)).toBe('REGULAR');
    // A retry of the capture says the same, and still captures nothing.
    expect((await capture(token, order.id)).json()).toEqual({ error: NOT_APPLICABLE_REGULAR, code: 'order_void' });
    expect((await paypalOrder(order.id)).status).toBe('APPROVED');
  });

  it('a key that left the account before the capture: nothing is captured', async () => {
    const { token, id } = await newUser();
    const key = await ownedKey(t, id, 'LITE');
    const { order } = (await createPaypal(token, key)).json<{ order: { id: string } }>();
    await approve(order.id);
    const released = await t.app.inject({
      method: 'POST',
      url: '/keys/delete',
      headers: auth(token),
      payload: { apiKey: key },
    });
    expect(released.statusCode).toBe(200);
    const captured = await capture(token, order.id);
    expect(captured.statusCode).toBe(409);
    expect(captured.json()).toEqual({
      error: 'This license is no longer in your account. Nothing was charged.',
      code: 'order_void',
    });
    expect((await paypalOrder(order.id)).status).toBe('APPROVED');
  });

  it('a token redeemed while the capture is in flight is refused (the token stays unused); the capture completes', async () => {
    const { token, id } = await newUser();
    const key = await ownedKey(t, id, 'LITE');
    const { order } = (await createPaypal(token, key)).json<{ order: { id: string } }>();
    await approve(order.id);
    let open!: () => void;
    captureGate = new Promise((resolve) => (open = resolve));
    const started = new Promise<void>((resolve) => (captureStarted = resolve));
    const capturing = capture(token, order.id);
    await started; // claimed, and at the provider now
    const upgradeToken = await mintToken('LITE_TO_REGULAR');
    const redeemed = await redeem(token, 'regular', upgradeToken, key);
    expect(redeemed.statusCode).toBe(409);
    expect(redeemed.json()).toEqual({
      error: 'A payment for this license is being completed. Please try again in a minute.',
      code: 'payment_in_progress',
    });
    open();
    captureGate = null;
    captureStarted = null;
    const captured = await capturing;
    expect(captured.statusCode).toBe(200);
    expect(captured.json()).toMatchObject({ order: { status: 'completed' }, key: { pro: true } });
    await wallet.idle();
    expect(await tierOf(key)).toBe('PRO');
    const [tokenRow] = await t.db
      .select()
      .from(upgradeTokens)
      .where(eq(upgradeTokens.tokenHash, hashSecret(upgradeToken)));
    expect(tokenRow!.usedAt).toBeNull();
  });
});

describe('cards: authorized by the browser, captured by the server after the same check', () => {
  it('a token redeemed before the card is confirmed voids the order and cancels its payment; confirming says why', async () => {
    const { token, id } = await newUser();
    const key = await ownedKey(t, id, 'LITE');
    const started = await startCard(token, key);
    expect(started.statusCode).toBe(200);
    const ref = started.json<{ payment_intent: { id: string } }>().payment_intent.id;
    expect((await redeem(token, 'regular', await mintToken('LITE_TO_REGULAR'), key)).statusCode).toBe(200);
    expect((await cardPayment(ref)).status).toBe('canceled');

    const confirmed = await confirm(token, ref);
    expect(confirmed.statusCode).toBe(409);
    expect(confirmed.json()).toEqual({ error: NOT_APPLICABLE_REGULAR, code: 'order_void' });
    const synced = await sync(token, ref);
    expect(synced.statusCode).toBe(409);
    expect(synced.json()).toEqual({ error: NOT_APPLICABLE_REGULAR, code: 'order_void' });
    expect((await ordersOf(key)).map((row) => row.status)).toEqual(['void']);
    expect(await tierOf(key)).toBe('REGULAR');
  });

  it('a card authorized, then a token redeemed before the capture: the authorization is released, nothing charged', async () => {
    const { token, id } = await newUser();
    const key = await ownedKey(t, id, 'LITE');
    const ref = (await startCard(token, key)).json<{ payment_intent: { id: string } }>().payment_intent.id;
    heldCardEvents = [];
    // The browser's confirmation authorizes the card; its webhook and the sync have not run yet.
    const confirmed = await confirm(token, ref);
    expect(confirmed.json()).toEqual({ status: 'requires_capture' });
    // Held until the redemption committed: the event leaves through the job engine a moment after the confirmation.
    expect((await redeem(token, 'regular', await mintToken('LITE_TO_REGULAR'), key)).statusCode).toBe(200);
    // The authorization was released with the void (after the redemption committed).
    expect((await cardPayment(ref)).status).toBe('canceled');
    await card.idle();
    const held = heldCardEvents;
    heldCardEvents = null;
    expect(held.length).toBeGreaterThan(0);
    for (const send of held) await send(); // the late webhook captures nothing
    const synced = await sync(token, ref);
    expect(synced.statusCode).toBe(409);
    expect(synced.json()).toEqual({ error: NOT_APPLICABLE_REGULAR, code: 'order_void' });
    expect((await cardPayment(ref)).status).toBe('canceled');
    expect((await ordersOf(key)).map((row) => row.status)).toEqual(['void']);
  });

  it('replacing a quote cancels the previous card payment before answering; confirming the old one is a 409', async () => {
    const { token, id } = await newUser();
    const key = await ownedKey(t, id, 'LITE');
    const first = (await startCard(token, key)).json<{ payment_intent: { id: string } }>().payment_intent.id;
    const business = { ...GERMAN_CONSUMER, is_business: true, company_name: 'Kunde GmbH', vat_id: 'DE123456789' };
    const second = await startCard(token, key, business);
    expect(second.statusCode).toBe(200);
    // Already cancelled when the new quote is answered.
    expect((await cardPayment(first)).status).toBe('canceled');
    const confirmed = await confirm(token, first);
    expect(confirmed.statusCode).toBe(409);
    expect(confirmed.json()).toEqual({
      error: 'This payment was replaced by a newer one. Nothing was charged.',
      code: 'order_superseded',
    });
    const synced = await sync(token, first);
    expect(synced.statusCode).toBe(409);
    expect(synced.json()).toMatchObject({ code: 'order_superseded' });
    expect((await ordersOf(key)).map((row) => row.status).sort()).toEqual(['pending', 'superseded']);
  });

  it('the new quote is answered only once the previous card payment is cancelled at the provider', async () => {
    const { token, id } = await newUser();
    const key = await ownedKey(t, id, 'LITE');
    const first = (await startCard(token, key)).json<{ payment_intent: { id: string } }>().payment_intent.id;
    let release!: () => void;
    cancelGate = new Promise((resolve) => (release = resolve));
    const business = { ...GERMAN_CONSUMER, is_business: true, company_name: 'Kunde GmbH', vat_id: 'DE123456789' };
    const answered = startCard(token, key, business).then((response) => {
      sequence.push('answered');
      return response;
    });
    // The provider takes its time; the answer must wait for it (a fire-and-forget cancel would answer first).
    setTimeout(release, 1000);
    expect((await answered).statusCode).toBe(200);
    cancelGate = null;
    expect(sequence.slice(-2)).toEqual([`cancelled ${first}`, 'answered']);
  });

  it('an order paid meanwhile is not replaced: its authorized card is captured and the new quote refused', async () => {
    const { token, id } = await newUser();
    const key = await ownedKey(t, id, 'LITE');
    const ref = (await startCard(token, key)).json<{ payment_intent: { id: string } }>().payment_intent.id;
    heldCardEvents = [];
    await confirm(token, ref);
    // The authorization's event is held until the new quote was answered (it leaves a moment after the confirmation).
    const again = await startCard(token, key);
    await card.idle();
    const held = heldCardEvents;
    heldCardEvents = null;
    for (const send of held) await send();
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ code: 'already_paid' });
    expect(await tierOf(key)).toBe('PRO');
    expect((await cardPayment(ref)).status).toBe('succeeded');
  });
});
