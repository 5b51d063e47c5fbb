/**
 * Issue 19: pending orders that are abandoned expire (staff see `expired`, not `pending` forever; their card payment is
 * released), an abandoned order whose card was authorized is captured instead (as its lost webhook would have), and a
 * capture whose process died after its claim is resumed.
 */
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sandboxPaypalOrders, sandboxPayments, orders } from '../src/db/schema';
import {
  createSandboxPaymentProvider,
  type SandboxPaymentProvider,
} from '../src/integrations/payments/sandbox-adapter';
import { ABANDONED_AFTER_MS, STALE_CAPTURE_AFTER_MS } from '../src/modules/payments/order-sweeper';
import type { Jobs } from '../src/modules/jobs/jobs.service';
import { startedTestJobs } from './helpers/jobs';
import { auth, createTestApp, getTestDatabase, signUp, type TestApp } from './helpers/test-app';
import { GERMAN_CONSUMER, ownedKey, paypalOrderBody, tierOf } from './helpers/keys';

let t: TestApp;
let card: SandboxPaymentProvider;
/** While set, the card sandbox's events are dropped (a webhook that never arrives). */
let dropCardEvents = false;

let jobs: Jobs;
afterAll(() => jobs.stop());

beforeAll(async () => {
  const { db } = await getTestDatabase();
  jobs = startedTestJobs(db);
  card = createSandboxPaymentProvider({
    db,
    webhookSecret: 'whsec_order_sweeper',
    jobs,
    retry: { maxAttempts: 2, backoff: { baseMs: 10, maxMs: 10 } },
    deliver: async (raw, signature) => {
      if (dropCardEvents) return { statusCode: 200 };
      const response = await t.app.inject({
        method: 'POST',
        url: '/stripe/webhook',
        headers: { 'content-type': 'application/json', 'stripe-signature': signature },
        payload: raw,
      });
      return { statusCode: response.statusCode };
    },
  });
  t = await createTestApp({}, { payments: card });
});

let people = 0;
const newUser = (role?: string) =>
  signUp(t, `sweeper-${++people}@example.com`, { ip: `10.63.${people >> 8}.${people & 255}`, role });
const sweeper = () => t.app.services.orderSweeper;
const later = (ms: number) => new Date(Date.now() + ms + 60_000);

const startCard = (token: string, key: string) =>
  t.app.inject({
    method: 'POST',
    url: '/stripe/payment-intents',
    headers: auth(token),
    payload: { price_id: 'price_sandbox_lite_to_pro', theme_type: 'PRO', key, billing: GERMAN_CONSUMER },
  });
const orderOf = async (key: string) =>
  (await t.db.select().from(orders).where(eq(orders.licenseKey, key)))[0]!;

describe('expireAbandonedOrders', () => {
  it('expires a card order abandoned for a day: its payment released, staff see expired, a late sync says so', async () => {
    const { token, id } = await newUser();
    const key = await ownedKey(t, id, 'LITE');
    const ref = (await startCard(token, key)).json<{ payment_intent: { id: string } }>().payment_intent.id;
    // Not abandoned yet: nothing happens.
    expect(await sweeper().expireAbandonedOrders(new Date())).toBe(0);
    expect((await orderOf(key)).status).toBe('pending');

    expect(await sweeper().expireAbandonedOrders(later(ABANDONED_AFTER_MS))).toBeGreaterThanOrEqual(1);
    expect((await orderOf(key)).status).toBe('expired');
    const [payment] = await t.db.select().from(sandboxPayments).where(eq(sandboxPayments.id, ref));
    expect(payment!.status).toBe('canceled');

    const staff = await newUser('staff');
    const listed = await t.app.inject({ url: '/staff/orders?status=expired', headers: auth(staff.token) });
    expect(listed.json<{ orders: { license_key: string; status: string }[] }>().orders).toContainEqual(
      expect.objectContaining({ license_key: key, status: 'expired' }),
    );
    const synced = await t.app.inject({
      method: 'POST',
      url: `/stripe/payment-intents/${ref}/sync`,
      headers: auth(token),
    });
    expect(synced.statusCode).toBe(409);
    expect(synced.json()).toEqual({
      error: 'This payment expired before it was completed. Nothing was charged. Please start again.',
      code: 'order_expired',
    });
    // A second sweep changes nothing more.
    expect(await sweeper().expireAbandonedOrders(later(ABANDONED_AFTER_MS))).toBe(0);
  });

  it('expires an abandoned PayPal order (even approved): its capture is refused, nothing is charged', async () => {
    const { token, id } = await newUser();
    const key = await ownedKey(t, id, 'LITE');
    const created = await t.app.inject({
      method: 'POST',
      url: '/stripe/paypal/create-order',
      headers: auth(token),
      payload: paypalOrderBody(key),
    });
    const ref = created.json<{ order: { id: string } }>().order.id;
    await t.db.update(sandboxPaypalOrders).set({ status: 'APPROVED' }).where(eq(sandboxPaypalOrders.id, ref));
    await sweeper().expireAbandonedOrders(later(ABANDONED_AFTER_MS));
    expect((await orderOf(key)).status).toBe('expired');
    const captured = await t.app.inject({
      method: 'POST',
      url: '/stripe/paypal/capture-order',
      headers: auth(token),
      payload: { order_id: ref },
    });
    expect(captured.statusCode).toBe(409);
    expect(captured.json()).toMatchObject({ code: 'order_expired' });
    const [standIn] = await t.db.select().from(sandboxPaypalOrders).where(eq(sandboxPaypalOrders.id, ref));
    expect(standIn!.status).toBe('APPROVED');
    expect(await tierOf(t, key)).toBe('LITE');
  });

  it('captures an abandoned order whose card was authorized (its webhook lost) instead of expiring it', async () => {
    const { token, id } = await newUser();
    const key = await ownedKey(t, id, 'LITE');
    const ref = (await startCard(token, key)).json<{ payment_intent: { id: string } }>().payment_intent.id;
    dropCardEvents = true;
    try {
      await t.app.inject({
        method: 'POST',
        url: '/sandbox/stripe/confirm',
        headers: auth(token),
        payload: { payment_intent_id: ref, card_number: '4242424242424242' },
      });
      await card.idle();
    } finally {
      dropCardEvents = false;
    }
    expect((await orderOf(key)).status).toBe('pending');
    await sweeper().expireAbandonedOrders(later(ABANDONED_AFTER_MS));
    expect((await orderOf(key)).status).toBe('completed');
    expect(await tierOf(t, key)).toBe('PRO');
  });
});

describe('recoverStaleCaptures', () => {
  it('resumes a capture whose process died after the claim: captured once and settled', async () => {
    const { token, id } = await newUser();
    const key = await ownedKey(t, id, 'LITE');
    const ref = (await startCard(token, key)).json<{ payment_intent: { id: string } }>().payment_intent.id;
    dropCardEvents = true;
    try {
      await t.app.inject({
        method: 'POST',
        url: '/sandbox/stripe/confirm',
        headers: auth(token),
        payload: { payment_intent_id: ref, card_number: '4242424242424242' },
      });
      await card.idle();
    } finally {
      dropCardEvents = false;
    }
    // What a claim leaves when its process dies before the capture: the order claimed, the card only authorized.
    await t.db
      .update(orders)
      .set({ status: 'capturing', updatedAt: sql`now()` })
      .where(eq(orders.licenseKey, key));
    expect(await sweeper().recoverStaleCaptures(new Date())).toBe(0); // too recent: a live request may hold it
    expect(await sweeper().recoverStaleCaptures(later(STALE_CAPTURE_AFTER_MS))).toBeGreaterThanOrEqual(1);
    await card.idle();
    expect((await orderOf(key)).status).toBe('completed');
    expect(await tierOf(t, key)).toBe('PRO');
    const [payment] = await t.db.select().from(sandboxPayments).where(eq(sandboxPayments.id, ref));
    expect(payment!.status).toBe('succeeded');
  });
});
