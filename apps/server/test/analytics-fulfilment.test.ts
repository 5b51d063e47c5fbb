import { eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { analyticsOutbox, orders } from '../src/db/schema';
import { auth, createTestApp, signUp, type TestApp } from './helpers/test-app';
import { ownedKey } from './helpers/keys';

// The defaults users get: sandbox payments and the sandbox analytics adapter (no KLAVIYO_PRIVATE_KEY).
let t: TestApp;
let staffToken: string;
let people = 0;

beforeAll(async () => {
  t = await createTestApp({ UPGRADE_TOKEN_RATE_LIMIT_MAX: '100' });
  staffToken = (await signUp(t, 'staff@example.com', { role: 'staff' })).token;
});

const newUser = async () => {
  const email = `buyer-${++people}@example.com`;
  return { email, ...(await signUp(t, email, { ip: `10.70.0.${people}` })) };
};

const keyFor = (userId: number, tier: 'LITE' | 'REGULAR' = 'LITE') => ownedKey(t, userId, tier);

const BILLING = {
  name: 'Sam Buyer',
  email: 'billing@example.org',
  address: { line1: '1 Main St', line2: null, city: 'Austin', state: 'TX', postal_code: '73301', country: 'US' },
  is_business: false,
  company_name: null,
  vat_id: null,
};

/** A LITE→PRO card payment through the sandbox, confirmed; answers the order id and the payment id. */
async function payLiteToPro(token: string, key: string) {
  const started = await t.app.inject({
    method: 'POST',
    url: '/stripe/payment-intents',
    headers: auth(token),
    payload: { price_id: 'price_sandbox_lite_to_pro', theme_type: 'PRO', key, billing: BILLING },
  });
  expect(started.statusCode).toBe(200);
  const body = started.json<{ payment_intent: { id: string }; order: { id: number } }>();
  const confirmed = await t.app.inject({
    method: 'POST',
    url: '/sandbox/stripe/confirm',
    headers: auth(token),
    payload: { payment_intent_id: body.payment_intent.id, card_number: '4242 4242 4242 4242' },
  });
  expect(confirmed.statusCode).toBe(200);
  return { orderId: body.order.id, paymentId: body.payment_intent.id };
}

const sync = (token: string, paymentId: string) =>
  t.app.inject({ method: 'POST', url: `/stripe/payment-intents/${paymentId}/sync`, headers: auth(token) });
const outboxOf = (userId: number) => t.db.select().from(analyticsOutbox).where(eq(analyticsOutbox.userId, userId));
const staffList = (query = '') =>
  t.app.inject({ url: `/staff/analytics-events${query}`, headers: auth(staffToken) }).then((response) => ({
    status: response.statusCode,
    body: response.json<{
      adapter: string;
      total: number;
      page: number;
      page_size: number;
      events: { email: string; name: string | null; unique_id: string | null; properties: Record<string, unknown> }[];
    }>(),
  }));

describe('Completed Upgrade Purchase is recorded by fulfilment', () => {
  it('in the fulfilment transaction, once, with the §3 properties, and delivered on the account email', async () => {
    const { token, id, email } = await newUser();
    const key = await keyFor(id, 'LITE');
    const { orderId, paymentId } = await payLiteToPro(token, key);
    await t.app.services.sandboxPayments!.idle();
    expect((await sync(token, paymentId)).statusCode).toBe(200);
    expect((await sync(token, paymentId)).statusCode).toBe(200); // a second sync settles nothing again

    const rows = await outboxOf(id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      kind: 'event',
      name: 'Completed Upgrade Purchase',
      uniqueId: `upgrade-order-${orderId}`,
    });
    expect(rows[0]!.payload).toMatchObject({
      value: 320,
      properties: {
        license_key: key,
        upgrade_from: 'LITE',
        upgrade_to: 'PRO',
        price: 320,
        payment_method: 'card',
        payment_intent_id: paymentId,
        is_business: false,
        billing_country: 'US',
        subtotal: 320,
        tax: 0,
        total: 320,
        currency: 'USD',
        quantity: 1,
      },
    });

    await t.app.services.analytics.deliverDue();
    const listed = await staffList();
    expect(listed.status).toBe(200);
    expect(listed.body.adapter).toBe('sandbox');
    expect(listed.body.events).toContainEqual(
      expect.objectContaining({ email, name: 'Completed Upgrade Purchase', unique_id: `upgrade-order-${orderId}` }),
    );
  });

  it('a rolled-back fulfilment enqueues nothing; the retry that commits enqueues it once', async () => {
    const { token, id } = await newUser();
    const key = await keyFor(id, 'LITE');
    // The receipt email (written after the analytics event, in the same transaction) fails: the whole fulfilment
    // rolls back.
    await t.db.execute(
      sql.raw(
        `alter table email_outbox add constraint test_no_receipts check (subject not like 'Your Keyport receipt%') not valid`,
      ),
    );
    try {
      const { orderId, paymentId } = await payLiteToPro(token, key);
      await t.app.services.sandboxPayments!.idle();
      expect((await sync(token, paymentId)).statusCode).toBe(500);
      expect(await outboxOf(id)).toEqual([]);
      const [order] = await t.db.select().from(orders).where(eq(orders.id, orderId));
      // The card was captured, the settlement rolled back: the order stays claimed (its key held) until one commits.
      expect(order!.status).toBe('capturing');
    } finally {
      await t.db.execute(sql.raw('alter table email_outbox drop constraint test_no_receipts'));
    }
    const [order] = await t.db.select().from(orders).where(eq(orders.userId, id));
    expect((await sync(token, order!.providerPaymentId!)).statusCode).toBe(200);
    expect((await outboxOf(id)).map((row) => row.uniqueId)).toEqual([`upgrade-order-${order!.id}`]);
  });
});

describe('Completed Upgrade Token Redemption is recorded by the redemption', () => {
  it('answers the event id to the browser and enqueues it with the tier change; a refused token enqueues nothing', async () => {
    const { token, id, email } = await newUser();
    const key = await keyFor(id, 'REGULAR');
    const minted = await t.app.inject({
      method: 'POST',
      url: '/staff/upgrade-tokens',
      headers: auth(staffToken),
      payload: { path: 'REGULAR_TO_PRO', count: 1, reason: 'test batch' },
    });
    const [upgradeKey] = minted.json<{ tokens: string[] }>().tokens;
    const redeem = (code: string) =>
      t.app.inject({
        method: 'POST',
        url: '/keys/upgrade/pro',
        headers: auth(token),
        payload: { upgradeKey: code, licenseKey: key },
      });
    expect((await redeem('NOT-A-REAL-TOKEN')).statusCode).toBe(400);
    expect(await outboxOf(id)).toEqual([]);

    const response = await redeem(upgradeKey!);
    expect(response.statusCode).toBe(200);
    const eventId = response.json<{ analytics_event_id: string }>().analytics_event_id;
    expect(eventId).toMatch(/^upgrade-token-\d+$/);
    const rows = await outboxOf(id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ name: 'Completed Upgrade Token Redemption', uniqueId: eventId });
    expect(rows[0]!.payload.properties).toMatchObject({ license_key: key, upgrade_from: 'REGULAR', upgrade_to: 'PRO' });

    // Issue 19: the browser cannot send it (nor a copy of it): the server's is the only one.
    const copy = await t.app.inject({
      method: 'POST',
      url: '/api/klaviyo/track',
      headers: auth(token),
      payload: { eventName: 'Completed Upgrade Token Redemption', unique_id: eventId, properties: {} },
    });
    expect(copy.statusCode).toBe(400);
    expect(await outboxOf(id)).toHaveLength(1);
    await t.app.services.analytics.deliverDue();
    const listed = await staffList();
    expect(listed.body.events.filter((event) => event.unique_id === eventId)).toEqual([
      expect.objectContaining({ email, name: 'Completed Upgrade Token Redemption' }),
    ]);
  });
});

describe('GET /staff/analytics-events', () => {
  it('is for staff only, newest first, paged', async () => {
    const { token } = await newUser();
    expect((await t.app.inject({ url: '/staff/analytics-events', headers: auth(token) })).statusCode).toBe(403);
    expect((await t.app.inject({ url: '/staff/analytics-events' })).statusCode).toBe(401);
    for (const name of ['Viewed Upgrade Options', 'Selected Upgrade', 'Started Upgrade Checkout']) {
      await t.app.inject({
        method: 'POST',
        url: '/api/klaviyo/track',
        headers: auth(token),
        payload: { eventName: name },
      });
      await t.app.services.analytics.deliverDue();
    }
    const first = await staffList('?page=1&page_size=2');
    expect(first.body).toMatchObject({ page: 1, page_size: 2 });
    expect(first.body.events.map((event) => event.name)).toEqual(['Started Upgrade Checkout', 'Selected Upgrade']);
    const second = await staffList('?page=2&page_size=2');
    expect(second.body.events[0]!.name).toBe('Viewed Upgrade Options');
    expect(first.body.total).toBe(second.body.total);
    expect((await staffList('?page=0')).status).toBe(400);
    expect((await staffList('?page_size=1000')).status).toBe(400);
  });
});
