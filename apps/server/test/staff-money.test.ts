import { and, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { auditLog, orders } from '../src/db/schema';
import {
  createSandboxPaymentProvider,
  type SandboxPaymentProvider,
} from '../src/integrations/payments/sandbox-adapter';
import { createSandboxPaypalProvider, type SandboxPaypalProvider } from '../src/integrations/paypal/sandbox-adapter';
import { GERMAN_CONSUMER, ownedKey, paypalOrderBody, tierOf as tierOfKey } from './helpers/keys';
import { QUICK_SANDBOX_RETRY, testJobs } from './helpers/jobs';
import { auth, createTestApp, getTestDatabase, signUp, type TestApp } from './helpers/test-app';

/** Issue 12: staff's orders (and refunds through the provider), upgrade tokens and catalogue writes. */
let t: TestApp;
let card: SandboxPaymentProvider;
let wallet: SandboxPaypalProvider;

beforeAll(async () => {
  const { db } = await getTestDatabase();
  // One engine for both sandboxes' events (delivered when a test awaits `idle()`).
  const jobs = testJobs(db);
  // Both sandboxes as services.ts builds them; their events reach the app's own webhook routes.
  card = createSandboxPaymentProvider({
    db,
    webhookSecret: 'whsec_staff_money',
    jobs,
    retry: QUICK_SANDBOX_RETRY,
    deliver: async (payload, signature) => {
      const response = await t.app.inject({
        method: 'POST',
        url: '/stripe/webhook',
        headers: { 'content-type': 'application/json', 'stripe-signature': signature },
        payload,
      });
      return { statusCode: response.statusCode };
    },
  });
  wallet = createSandboxPaypalProvider({
    db,
    webhookSecret: 'paypal_staff_money',
    jobs,
    retry: QUICK_SANDBOX_RETRY,
    deliver: async (payload, headers) => {
      const response = await t.app.inject({ method: 'POST', url: '/paypal/webhook', headers, payload });
      return { statusCode: response.statusCode };
    },
  });
  t = await createTestApp({}, { payments: card, paypal: wallet });
});

let people = 0;
async function newUser(role?: string) {
  const email = `staff-money-${++people}@example.com`;
  const user = await signUp(t, email, {
    ...(role ? { role } : {}),
    ip: `10.52.${Math.floor(people / 250)}.${(people % 250) + 1}`,
  });
  return { ...user, email };
}

const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, token?: string, payload?: object) =>
  t.app.inject({ method, url, ...(token ? { headers: auth(token) } : {}), ...(payload ? { payload } : {}) });

const tierOf = (apiKey: string) => tierOfKey(t, apiKey);

const staffRows = (action: string) =>
  t.db
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.action, action), eq(auditLog.actorType, 'staff')));

/** A LITE key of a new customer upgraded to REGULAR by card (sandbox), paid and applied. */
async function cardOrder() {
  const customer = await newUser();
  const key = await ownedKey(t, customer.id, 'LITE');
  const started = await call('POST', '/stripe/payment-intents', customer.token, {
    price_id: 'price_sandbox_lite_to_regular',
    theme_type: 'REGULAR',
    key,
    billing: GERMAN_CONSUMER,
  });
  expect(started.statusCode).toBe(200);
  const { payment_intent, order } = started.json<{ payment_intent: { id: string }; order: { id: number } }>();
  return {
    ...customer,
    key,
    orderId: order.id,
    pay: async () => {
      const confirmed = await call('POST', '/sandbox/stripe/confirm', customer.token, {
        payment_intent_id: payment_intent.id,
        card_number: '4242 4242 4242 4242',
      });
      expect(confirmed.statusCode).toBe(200);
      await card.idle();
      expect(await tierOf(key)).toBe('REGULAR');
    },
  };
}

/** A LITE key of a new customer upgraded to PRO through the sandbox wallet, captured and applied. */
async function paypalOrder() {
  const customer = await newUser();
  const key = await ownedKey(t, customer.id, 'LITE');
  const created = await call('POST', '/stripe/paypal/create-order', customer.token, paypalOrderBody(key));
  expect(created.statusCode).toBe(200);
  const { order, quote } = created.json<{ order: { id: string }; quote: { id: number } }>();
  await t.app.inject({
    method: 'POST',
    url: '/sandbox/paypal/checkout',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({ token: order.id, action: 'approve' }).toString(),
  });
  expect((await call('POST', '/stripe/paypal/capture-order', customer.token, { order_id: order.id })).statusCode).toBe(
    200,
  );
  await wallet.idle();
  expect(await tierOf(key)).toBe('PRO');
  return { ...customer, key, orderId: quote.id, ref: order.id };
}

describe('who may call the staff money routes', () => {
  it('refuses customers and team members (403) and anonymous callers (401) on every route', async () => {
    const reason = { reason: 'checking access' };
    const routes: [method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object][] = [
      ['GET', '/staff/orders'],
      ['POST', '/staff/orders/1/refund', reason],
      ['GET', '/staff/upgrade-tokens'],
      ['POST', '/staff/upgrade-tokens', { path: 'LITE_TO_REGULAR', count: 1, ...reason }],
      ['POST', '/staff/upgrade-tokens/1/revoke', reason],
      ['GET', '/staff/upgrade-prices'],
      [
        'PUT',
        '/staff/upgrade-prices',
        { prices: [{ path: 'LITE_TO_PRO', amount_cents: 30000, price_id: null }], ...reason },
      ],
      ['POST', '/staff/credit-packs', { name: 'P', credits: 1, amount_cents: 100, provider_price_id: null, ...reason }],
      [
        'PUT',
        '/staff/credit-packs/1',
        { name: 'P', credits: 1, amount_cents: 100, provider_price_id: null, ...reason },
      ],
      [
        'POST',
        '/staff/redeem-products',
        { name: 'R', description: '', grant_type: 'license_level', grant_value: 'PRO', cost_credits: 1, ...reason },
      ],
      [
        'PUT',
        '/staff/redeem-products/1',
        { name: 'R', description: '', grant_type: 'license_level', grant_value: 'PRO', cost_credits: 1, ...reason },
      ],
      ['DELETE', '/staff/redeem-products/1', reason],
    ];
    const customer = await newUser();
    const team = await newUser('team');
    for (const [method, url, payload] of routes) {
      expect((await call(method, url, undefined, payload)).statusCode, `${method} ${url}`).toBe(401);
      expect((await call(method, url, customer.token, payload)).statusCode, `${method} ${url}`).toBe(403);
      expect((await call(method, url, team.token, payload)).statusCode, `${method} ${url}`).toBe(403);
    }
    expect(await t.db.select().from(auditLog).where(eq(auditLog.actorType, 'staff'))).toHaveLength(0);
  });
});

describe('GET /staff/orders', () => {
  it('lists card and PayPal orders newest first with provider ids and VAT evidence; filters and pages', async () => {
    const staff = await newUser('staff');
    const pending = await cardOrder();
    const paid = await cardOrder();
    await paid.pay();
    const viaPaypal = await paypalOrder();

    const all = await call('GET', '/staff/orders', staff.token);
    expect(all.statusCode).toBe(200);
    const ids = all.json<{ orders: { id: number }[] }>().orders.map((order) => order.id);
    expect(ids.slice(0, 3)).toEqual([viaPaypal.orderId, paid.orderId, pending.orderId]);
    expect(all.json().orders[1]).toMatchObject({
      id: paid.orderId,
      kind: 'upgrade',
      status: 'completed',
      email: paid.email,
      license_key: paid.key,
      from: 'LITE',
      to: 'REGULAR',
      method: 'card',
      provider: 'sandbox',
      provider_payment_id: expect.stringMatching(/^pi_sandbox_/),
      base_amount: 12000,
      vat_amount: 2280,
      total_amount: 14280,
      vat_rate: 19,
      reverse_charge: false,
      billing_country: 'DE',
      vat_id: null,
      vat_consultation_number: null,
      paid_at: expect.any(String),
      refunded_at: null,
    });

    const paypalOnly = (await call('GET', '/staff/orders?provider=paypal', staff.token)).json<{
      orders: { id: number; method: string; provider: string }[];
    }>();
    expect(paypalOnly.orders.map((order) => order.id)).toEqual([viaPaypal.orderId]);
    expect(paypalOnly.orders[0]).toMatchObject({ method: 'paypal', provider: 'paypal_sandbox' });
    const pendingOnly = (await call('GET', '/staff/orders?status=pending', staff.token)).json<{
      orders: { id: number }[];
    }>();
    expect(pendingOnly.orders.map((order) => order.id)).toEqual([pending.orderId]);

    const first = (await call('GET', '/staff/orders?limit=2', staff.token)).json<{
      orders: { id: number }[];
      next_cursor: string | null;
    }>();
    expect(first.orders.map((order) => order.id)).toEqual([viaPaypal.orderId, paid.orderId]);
    expect(first.next_cursor).toBe(String(paid.orderId));
    const second = (await call('GET', `/staff/orders?limit=2&cursor=${first.next_cursor}`, staff.token)).json<{
      orders: { id: number }[];
      next_cursor: string | null;
    }>();
    expect(second.orders.map((order) => order.id)).toEqual([pending.orderId]);
    expect(second.next_cursor).toBeNull();

    // Oldest first (the Created column's other order): the same cursor paging, the other way.
    const oldest = (await call('GET', '/staff/orders?order=asc&limit=2', staff.token)).json<{
      orders: { id: number }[];
      next_cursor: string | null;
    }>();
    expect(oldest.orders.map((order) => order.id)).toEqual([pending.orderId, paid.orderId]);
    const newer = (
      await call('GET', `/staff/orders?order=asc&limit=2&cursor=${oldest.next_cursor}`, staff.token)
    ).json<{
      orders: { id: number }[];
      next_cursor: string | null;
    }>();
    expect(newer.orders.map((order) => order.id)).toEqual([viaPaypal.orderId]);
    expect(newer.next_cursor).toBeNull();

    for (const bad of ['status=paid', 'provider=cash', 'cursor=abc', 'limit=0', 'limit=101', 'order=up']) {
      const refused = await call('GET', `/staff/orders?${bad}`, staff.token);
      expect(refused.statusCode, bad).toBe(400);
      expect(refused.json()).toMatchObject({ code: expect.any(String), error: expect.any(String) });
    }
  });
});

describe('POST /staff/orders/:id/refund', () => {
  it('asks the card provider; its webhook refunds the order and reverts the tier; one audit row with the reason', async () => {
    const staff = await newUser('staff');
    const order = await cardOrder();
    await order.pay();

    const asked = await call('POST', `/staff/orders/${order.orderId}/refund`, staff.token, {
      reason: 'Customer asked within 14 days',
    });
    expect(asked.statusCode).toBe(202);
    await card.idle();
    expect(await tierOf(order.key)).toBe('LITE');
    const [row] = await t.db.select().from(orders).where(eq(orders.id, order.orderId));
    expect(row!.status).toBe('refunded');

    const audits = (await staffRows('order.refund_requested')).filter(
      (entry) => entry.objectId === String(order.orderId),
    );
    expect(audits).toHaveLength(1);
    expect(audits[0]).toMatchObject({
      actorId: String(staff.id),
      reason: 'Customer asked within 14 days',
      customerUserId: order.id,
    });
    // Refunded now: a second request is refused and audits nothing.
    const again = await call('POST', `/staff/orders/${order.orderId}/refund`, staff.token, { reason: 'twice' });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual({
      error: 'Only a completed or disputed order can be refunded.',
      code: 'order_not_refundable',
    });
    expect(
      (await staffRows('order.refund_requested')).filter((e) => e.objectId === String(order.orderId)),
    ).toHaveLength(1);
  });

  it('asks the PayPal sandbox; PAYMENT.CAPTURE.REFUNDED refunds the order and reverts the tier', async () => {
    const staff = await newUser('staff');
    const order = await paypalOrder();
    const asked = await call('POST', `/staff/orders/${order.orderId}/refund`, staff.token, {
      reason: 'Duplicate purchase',
    });
    expect(asked.statusCode).toBe(202);
    expect(asked.json()).toMatchObject({ order: { id: order.orderId, method: 'paypal' } });
    await wallet.idle();
    expect(await tierOf(order.key)).toBe('LITE');
    const [row] = await t.db.select().from(orders).where(eq(orders.id, order.orderId));
    expect(row!.status).toBe('refunded');
  });

  it('answers 409 for a pending order and 404 for an unknown one, asking no provider and auditing nothing', async () => {
    const staff = await newUser('staff');
    const pending = await cardOrder();
    const refused = await call('POST', `/staff/orders/${pending.orderId}/refund`, staff.token, {
      reason: 'no money yet',
    });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().code).toBe('order_not_refundable');
    expect((await call('POST', '/staff/orders/999999/refund', staff.token, { reason: 'unknown' })).statusCode).toBe(
      404,
    );
    const noReason = await call('POST', `/staff/orders/${pending.orderId}/refund`, staff.token, { reason: ' a ' });
    expect(noReason.statusCode).toBe(400);
    expect(
      (await staffRows('order.refund_requested')).filter((entry) => entry.objectId === String(pending.orderId)),
    ).toHaveLength(0);
  });

  it('20 refund requests at once: one provider refund, the order refunded once', async () => {
    const staff = await newUser('staff');
    const order = await cardOrder();
    await order.pay();
    const answers = await Promise.all(
      Array.from({ length: 20 }, () =>
        call('POST', `/staff/orders/${order.orderId}/refund`, staff.token, { reason: 'pressed many times' }),
      ),
    );
    for (const answer of answers) expect([202, 409]).toContain(answer.statusCode);
    await card.idle();
    const [row] = await t.db.select().from(orders).where(eq(orders.id, order.orderId));
    expect(row!.status).toBe('refunded');
    const payment = await card.retrievePayment(row!.providerPaymentId!);
    expect(payment!.refundedCents).toBe(row!.totalAmountCents);
    expect(await tierOf(order.key)).toBe('LITE');
  });
});

describe('upgrade tokens', () => {
  it('mints a batch with a reason (one audit row, no tokens in it), lists, revokes; a revoked token never redeems', async () => {
    const staff = await newUser('staff');
    const minted = await call('POST', '/staff/upgrade-tokens', staff.token, {
      path: 'LITE_TO_REGULAR',
      count: 3,
      reason: 'Giveaway batch',
    });
    expect(minted.statusCode).toBe(201);
    const tokens = minted.json<{ tokens: string[] }>().tokens;
    expect(tokens).toHaveLength(3);
    const batchAudits = await staffRows('upgrade_tokens.minted');
    expect(batchAudits).toHaveLength(1);
    expect(batchAudits[0]).toMatchObject({ reason: 'Giveaway batch', actorId: String(staff.id) });
    expect(JSON.stringify(batchAudits[0]!.data)).not.toContain(tokens[0]!);
    expect(
      (await call('POST', '/staff/upgrade-tokens', staff.token, { path: 'LITE_TO_REGULAR', count: 1 })).statusCode,
    ).toBe(400);

    const unused = (await call('GET', '/staff/upgrade-tokens?status=unused', staff.token)).json<{
      tokens: { id: number; status: string; created_by_email: string; hint: string }[];
    }>().tokens;
    expect(unused).toHaveLength(3);
    expect(unused[0]).toMatchObject({ status: 'unused', created_by_email: staff.email });
    // Each row says which token it is by the token's last 5 characters (newest first: the batch in reverse).
    expect(unused.map((token) => token.hint)).toEqual(tokens.map((token) => token.slice(-5)).reverse());
    const [newest, middle] = unused;

    const revoked = await call('POST', `/staff/upgrade-tokens/${newest!.id}/revoke`, staff.token, {
      reason: 'Posted publicly by mistake',
    });
    expect(revoked.statusCode).toBe(200);
    expect(revoked.json()).toMatchObject({
      token: { id: newest!.id, status: 'revoked', revoked_at: expect.any(String) },
    });
    expect(
      (await call('POST', `/staff/upgrade-tokens/${newest!.id}/revoke`, staff.token, { reason: 'again' })).statusCode,
    ).toBe(409);
    expect(
      (await call('POST', '/staff/upgrade-tokens/999999/revoke', staff.token, { reason: 'unknown' })).statusCode,
    ).toBe(404);

    // The newest row is the last token of the batch (ids in insert order).
    const customer = await newUser();
    const key = await ownedKey(t, customer.id, 'LITE');
    const redeem = (token: string) =>
      call('POST', '/keys/upgrade/regular', customer.token, { upgradeKey: token, licenseKey: key });
    const refused = await redeem(tokens[2]!);
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toEqual({ error: 'This upgrade token has been revoked.', code: 'upgrade_token_revoked' });
    expect(await tierOf(key)).toBe('LITE');

    expect((await redeem(tokens[1]!)).statusCode).toBe(200);
    const used = (await call('GET', '/staff/upgrade-tokens?status=used', staff.token)).json<{
      tokens: { id: number; used_by_email: string; used_at: string }[];
    }>().tokens;
    expect(used).toEqual([
      expect.objectContaining({ id: middle!.id, used_by_email: customer.email, used_at: expect.any(String) }),
    ]);
    expect(
      (await call('POST', `/staff/upgrade-tokens/${middle!.id}/revoke`, staff.token, { reason: 'too late' }))
        .statusCode,
    ).toBe(409);
    const revokedList = (await call('GET', '/staff/upgrade-tokens?status=revoked', staff.token)).json<{
      tokens: { id: number }[];
    }>();
    expect(revokedList.tokens.map((token) => token.id)).toEqual([newest!.id]);

    const page = (await call('GET', '/staff/upgrade-tokens?limit=2', staff.token)).json<{
      tokens: { id: number }[];
      next_cursor: string;
    }>();
    expect(page.tokens).toHaveLength(2);
    const rest = (await call('GET', `/staff/upgrade-tokens?limit=2&cursor=${page.next_cursor}`, staff.token)).json<{
      tokens: { id: number }[];
    }>();
    expect(rest.tokens.every((token) => token.id < Number(page.next_cursor))).toBe(true);
    const oldestFirst = (await call('GET', '/staff/upgrade-tokens?order=asc&limit=2', staff.token)).json<{
      tokens: { id: number }[];
      next_cursor: string;
    }>();
    const ascendingIds = oldestFirst.tokens.map((token) => token.id);
    expect(ascendingIds).toEqual([...ascendingIds].sort((a, b) => a - b));
    const later = (
      await call('GET', `/staff/upgrade-tokens?order=asc&limit=2&cursor=${oldestFirst.next_cursor}`, staff.token)
    ).json<{ tokens: { id: number }[] }>();
    expect(later.tokens.length).toBeGreaterThan(0);
    expect(later.tokens.every((token) => token.id > Number(oldestFirst.next_cursor))).toBe(true);

    expect(await staffRows('upgrade_token.revoked')).toHaveLength(1);
  });

  it('10 revocations of one token at once: one wins, one audit row', async () => {
    const staff = await newUser('staff');
    await call('POST', '/staff/upgrade-tokens', staff.token, { path: 'REGULAR_TO_PRO', count: 1, reason: 'race' });
    const [token] = (await call('GET', '/staff/upgrade-tokens?path=REGULAR_TO_PRO&status=unused', staff.token)).json<{
      tokens: { id: number }[];
    }>().tokens;
    const answers = await Promise.all(
      Array.from({ length: 10 }, () =>
        call('POST', `/staff/upgrade-tokens/${token!.id}/revoke`, staff.token, { reason: 'race to revoke' }),
      ),
    );
    expect(answers.filter((answer) => answer.statusCode === 200)).toHaveLength(1);
    expect(answers.filter((answer) => answer.statusCode === 409)).toHaveLength(9);
    expect((await staffRows('upgrade_token.revoked')).filter((row) => row.objectId === String(token!.id))).toHaveLength(
      1,
    );
  });
});

describe('catalogue writes carry a reason', () => {
  it('prices, credit packs and redeem products: one audit row each with the reason; no reason, no change', async () => {
    const staff = await newUser('staff');
    const noReason = await call('PUT', '/staff/upgrade-prices', staff.token, {
      prices: [{ path: 'LITE_TO_PRO', amount_cents: 33300, price_id: 'price_sandbox_lite_to_pro' }],
    });
    expect(noReason.statusCode).toBe(400);
    expect(await staffRows('upgrade_prices.updated')).toHaveLength(0);
    const saved = await call('PUT', '/staff/upgrade-prices', staff.token, {
      prices: [{ path: 'LITE_TO_PRO', amount_cents: 33300, price_id: 'price_sandbox_lite_to_pro' }],
      reason: 'Winter pricing',
    });
    expect(saved.statusCode).toBe(200);
    expect(saved.json().prices).toContainEqual(expect.objectContaining({ path: 'LITE_TO_PRO', amount_cents: 33300 }));
    expect(await staffRows('upgrade_prices.updated')).toEqual([expect.objectContaining({ reason: 'Winter pricing' })]);

    const pack = await call('POST', '/staff/credit-packs', staff.token, {
      name: '7 credits',
      credits: 7,
      amount_cents: 2100,
      provider_price_id: null,
      reason: 'Trial pack',
    });
    expect(pack.statusCode).toBe(201);
    expect(await staffRows('credit_pack.created')).toEqual([expect.objectContaining({ reason: 'Trial pack' })]);

    const product = await call('POST', '/staff/redeem-products', staff.token, {
      name: 'Lite License',
      description: 'A LITE license',
      grant_type: 'license_level',
      grant_value: 'LITE',
      cost_credits: 2,
      reason: 'New product',
    });
    expect(product.statusCode).toBe(201);
    const productId = product.json<{ redeem_product: { id: number } }>().redeem_product.id;
    expect((await call('DELETE', `/staff/redeem-products/${productId}`, staff.token)).statusCode).toBe(400);
    expect(
      (await call('DELETE', `/staff/redeem-products/${productId}`, staff.token, { reason: 'Retired' })).statusCode,
    ).toBe(204);
    expect(await staffRows('redeem_product.created')).toEqual([expect.objectContaining({ reason: 'New product' })]);
    expect(await staffRows('redeem_product.retired')).toEqual([expect.objectContaining({ reason: 'Retired' })]);
  });
});
