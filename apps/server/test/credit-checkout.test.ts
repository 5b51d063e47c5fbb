import { and, eq, like } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  auditLog,
  creditAccounts,
  creditLedger,
  creditPacks,
  emailOutbox,
  invoices,
  orders,
} from '../src/db/schema';
import {
  createSandboxPaymentProvider,
  type SandboxPaymentProvider,
} from '../src/integrations/payments/sandbox-adapter';
import { createSandboxPaypalProvider, type SandboxPaypalProvider } from '../src/integrations/paypal/sandbox-adapter';
import { QUICK_SANDBOX_RETRY, testJobs } from './helpers/jobs';
import { auth, createTestApp, getTestDatabase, signUp, type TestApp } from './helpers/test-app';
import { GERMAN_CONSUMER } from './helpers/keys';

/**
 * Credit packs (issue 11): team members pay for credits through the card and PayPal paths (the sandbox adapters, the
 * same routes and code as the real ones); a paid order adds one `purchase` ledger row, a refund claws it back.
 */

let t: TestApp;
let cards: SandboxPaymentProvider;
let wallet: SandboxPaypalProvider;
/** Every event the sandboxes delivered, as sent, for the replay tests. */
const cardEvents: { raw: string; signature: string }[] = [];
const paypalEvents: { raw: string; headers: Record<string, string> }[] = [];

beforeAll(async () => {
  const { db } = await getTestDatabase();
  // One engine for both sandboxes' events (delivered when a test awaits `idle()`).
  const jobs = testJobs(db);
  cards = createSandboxPaymentProvider({
    db,
    webhookSecret: 'whsec_test_credit_checkout',
    jobs,
    retry: QUICK_SANDBOX_RETRY,
    deliver: async (raw, signature) => {
      cardEvents.push({ raw, signature });
      const response = await sendCardWebhook(raw, signature);
      return { statusCode: response.statusCode };
    },
  });
  wallet = createSandboxPaypalProvider({
    db,
    webhookSecret: 'paypal_sandbox_credit_checkout',
    jobs,
    retry: QUICK_SANDBOX_RETRY,
    deliver: async (raw, headers) => {
      paypalEvents.push({ raw, headers });
      const response = await t.app.inject({ method: 'POST', url: '/paypal/webhook', headers, payload: raw });
      return { statusCode: response.statusCode };
    },
  });
  t = await createTestApp({}, { payments: cards, paypal: wallet });
});

let people = 0;
const newUser = (role?: string) =>
  signUp(t, `credits-${++people}@example.com`, { role, ip: `10.52.${Math.floor(people / 250)}.${(people % 250) + 1}` });
const teamMember = () => newUser('team');

const sendCardWebhook = (raw: string, signature: string) =>
  t.app.inject({
    method: 'POST',
    url: '/stripe/webhook',
    headers: { 'content-type': 'application/json', 'stripe-signature': signature },
    payload: raw,
  });

async function packNamed(name: string) {
  const [pack] = await t.db.select().from(creditPacks).where(eq(creditPacks.name, name));
  return pack!;
}

const startCard = (token: string, payload: object) =>
  t.app.inject({ method: 'POST', url: '/credits/checkout/payment-intents', headers: auth(token), payload });
const startPaypal = (token: string, payload: object) =>
  t.app.inject({ method: 'POST', url: '/credits/checkout/paypal/create-order', headers: auth(token), payload });
const packBody = (pack: { id: number; providerPriceId: string | null }, billing: object = GERMAN_CONSUMER) => ({
  pack_id: pack.id,
  price_id: pack.providerPriceId,
  billing,
});
const confirm = (token: string, ref: string, cardNumber = '4242 4242 4242 4242') =>
  t.app.inject({
    method: 'POST',
    url: '/sandbox/stripe/confirm',
    headers: auth(token),
    payload: { payment_intent_id: ref, card_number: cardNumber },
  });
const sync = (token: string, ref: string) =>
  t.app.inject({ method: 'POST', url: `/stripe/payment-intents/${ref}/sync`, headers: auth(token) });
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

type StartedCard = { payment_intent: { id: string }; order: Record<string, unknown> & { id: number } };
type StartedPaypal = { order: { id: string }; approve_url: string; quote: Record<string, unknown> & { id: number } };

const ledgerOf = (userId: number) =>
  t.db.select().from(creditLedger).where(eq(creditLedger.userId, userId)).orderBy(creditLedger.id);
async function accountOf(userId: number) {
  const [account] = await t.db.select().from(creditAccounts).where(eq(creditAccounts.userId, userId));
  return { balance: account?.balance ?? 0, owed: account?.owed ?? 0 };
}
const orderById = async (id: number) => (await t.db.select().from(orders).where(eq(orders.id, id)))[0]!;

/** A team member who paid for the 12-credit pack by sandbox card (start → confirm → webhook), settled. */
async function paidByCard() {
  const buyer = await teamMember();
  const pack = await packNamed('12 credits');
  const started = (await startCard(buyer.token, packBody(pack))).json<StartedCard>();
  expect((await confirm(buyer.token, started.payment_intent.id)).statusCode).toBe(200);
  // The sandbox's authorization event reaches the webhook, which captures the card (the tab may be closed).
  await cards.idle();
  return { ...buyer, ref: started.payment_intent.id, orderId: started.order.id };
}

describe('GET /credits/packs', () => {
  it('lists the seeded packs, priced like upgrade options, for team members', async () => {
    const { token } = await teamMember();
    const response = await t.app.inject({ url: '/credits/packs', headers: auth(token) });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      packs: [
        {
          id: expect.any(Number),
          name: '5 credits',
          credits: 5,
          price: '$25.00',
          price_cents: 2500,
          priceId: 'price_sandbox_credits_5',
        },
        {
          id: expect.any(Number),
          name: '12 credits',
          credits: 12,
          price: '$50.00',
          price_cents: 5000,
          priceId: 'price_sandbox_credits_12',
        },
      ],
    });
  });

  it('seeds the catalogue once: another start does not add packs', async () => {
    await t.app.services.ensureCatalogue();
    await t.app.services.ensureCatalogue();
    expect(await t.db.select().from(creditPacks)).toHaveLength(2);
  });

  it('refuses customers (role null) with 403 team_only and anonymous callers with 401', async () => {
    const customer = await newUser();
    const refused = await t.app.inject({ url: '/credits/packs', headers: auth(customer.token) });
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ code: 'team_only' });
    expect((await t.app.inject({ url: '/credits/packs' })).statusCode).toBe(401);
  });
});

describe('staff credit packs', () => {
  const body = {
    name: '30 credits',
    credits: 30,
    amount_cents: 10000,
    provider_price_id: 'price_sandbox_credits_30',
    reason: 'test pack',
  };

  it('refuses customers and team members (403) and anonymous callers (401)', async () => {
    for (const role of [undefined, 'team']) {
      const { token } = await newUser(role);
      for (const request of [
        { method: 'GET' as const, url: '/staff/credit-packs' },
        { method: 'POST' as const, url: '/staff/credit-packs', payload: body },
        { method: 'PUT' as const, url: '/staff/credit-packs/1', payload: body },
      ]) {
        expect((await t.app.inject({ ...request, headers: auth(token) })).statusCode).toBe(403);
        expect((await t.app.inject(request)).statusCode).toBe(401);
      }
    }
  });

  it('creates, reprices and retires a pack, each change audited; a retired pack is not on sale', async () => {
    const staff = await newUser('staff');
    const created = await t.app.inject({
      method: 'POST',
      url: '/staff/credit-packs',
      headers: auth(staff.token),
      payload: body,
    });
    expect(created.statusCode).toBe(201);
    const { pack } = created.json<{ pack: { id: number } }>();
    expect(pack).toMatchObject({ name: '30 credits', credits: 30, price: '$100.00', active: true });

    const retired = await t.app.inject({
      method: 'PUT',
      url: `/staff/credit-packs/${pack.id}`,
      headers: auth(staff.token),
      payload: { ...body, amount_cents: 9000, active: false },
    });
    expect(retired.json()).toMatchObject({ pack: { price: '$90.00', price_cents: 9000, active: false } });
    const missing = await t.app.inject({
      method: 'PUT',
      url: '/staff/credit-packs/99999',
      headers: auth(staff.token),
      payload: body,
    });
    expect(missing.statusCode).toBe(404);

    const audit = await t.db.select().from(auditLog).where(like(auditLog.action, 'credit_pack.%'));
    expect(audit.map((row) => [row.action, row.actorId])).toEqual([
      ['credit_pack.created', String(staff.id)],
      ['credit_pack.updated', String(staff.id)],
    ]);
    const list = await t.app.inject({ url: '/staff/credit-packs', headers: auth(staff.token) });
    expect(list.json<{ packs: unknown[] }>().packs).toHaveLength(3);

    const buyer = await teamMember();
    const onSale = await t.app.inject({ url: '/credits/packs', headers: auth(buyer.token) });
    expect(onSale.json<{ packs: { id: number }[] }>().packs.map((p) => p.id)).not.toContain(pack.id);
    const refused = await startCard(buyer.token, {
      pack_id: pack.id,
      price_id: body.provider_price_id,
      billing: GERMAN_CONSUMER,
    });
    expect(refused.statusCode).toBe(404);
    expect(refused.json()).toMatchObject({ code: 'credit_pack_not_found' });
  });
});

describe('buying a credit pack by card (sandbox)', () => {
  it('start → confirm → webhook: one purchase ledger row, the credits, the invoice and a receipt', async () => {
    const buyer = await teamMember();
    const pack = await packNamed('12 credits');
    const response = await startCard(buyer.token, packBody(pack));
    expect(response.statusCode).toBe(200);
    const started = response.json<StartedCard>();
    expect(started.order).toMatchObject({
      kind: 'credit_pack',
      status: 'pending',
      from: null,
      to: null,
      credits: 12,
      base_amount: 5000,
      vat_amount: 950,
      total_amount: 5950,
      vat_rate: 19,
    });
    const pending = await orderById(started.order.id);
    expect(pending).toMatchObject({ kind: 'credit_pack', creditPackId: pack.id, credits: 12, licenseKeyId: null });

    await confirm(buyer.token, started.payment_intent.id);
    await cards.idle();
    const synced = await sync(buyer.token, started.payment_intent.id);
    expect(synced.statusCode).toBe(200);
    expect(synced.json()).toMatchObject({
      order: { kind: 'credit_pack', status: 'completed', credits: 12 },
      key: null,
    });

    const ledger = await ledgerOf(buyer.id);
    expect(ledger).toHaveLength(1);
    expect(ledger[0]).toMatchObject({
      kind: 'purchase',
      amount: 12,
      balanceAfter: 12,
      sourceRef: `order:${started.order.id}`,
    });
    expect(await accountOf(buyer.id)).toEqual({ balance: 12, owed: 0 });
    expect((await orderById(started.order.id)).upgradeProcessedAt).not.toBeNull();

    const [invoice] = await t.db.select().from(invoices).where(eq(invoices.orderId, started.order.id));
    expect(invoice).toMatchObject({ kind: 'invoice', lineDescription: '12 Keyport credits', totalCents: 5950 });
    const receipts = await t.db
      .select()
      .from(emailOutbox)
      .where(
        and(
          eq(emailOutbox.to, 'greta@example.de'),
          like(emailOutbox.subject, 'Your Keyport receipt: 12 Keyport credits'),
        ),
      );
    expect(receipts.filter((row) => row.body.includes(`Order: ${started.order.id}`))).toHaveLength(1);
  });

  it('the same pack twice reuses the pending order; another pack replaces it', async () => {
    const buyer = await teamMember();
    const twelve = await packNamed('12 credits');
    const first = (await startCard(buyer.token, packBody(twelve))).json<StartedCard>();
    const again = (await startCard(buyer.token, packBody(twelve))).json<StartedCard>();
    expect(again.order.id).toBe(first.order.id);
    expect(again.payment_intent.id).toBe(first.payment_intent.id);
    const other = (await startCard(buyer.token, packBody(await packNamed('5 credits')))).json<StartedCard>();
    expect(other.order.id).not.toBe(first.order.id);
    expect(other.order).toMatchObject({ credits: 5, total_amount: 2975 });
    expect((await orderById(first.order.id)).status).toBe('superseded');
  });

  it('20 concurrent syncs and replays of every webhook add the credits exactly once', async () => {
    const paid = await paidByCard();
    const replays = cardEvents.filter((event) => event.raw.includes(paid.ref));
    expect(replays.length).toBeGreaterThan(0);
    const responses = await Promise.all([
      ...Array.from({ length: 20 }, () => sync(paid.token, paid.ref)),
      ...replays.flatMap((event) => [1, 2, 3].map(() => sendCardWebhook(event.raw, event.signature))),
    ]);
    expect(responses.every((response) => response.statusCode === 200)).toBe(true);
    const ledger = await ledgerOf(paid.id);
    expect(ledger.map((row) => [row.kind, row.amount])).toEqual([['purchase', 12]]);
    expect(await accountOf(paid.id)).toEqual({ balance: 12, owed: 0 });
    expect(await t.db.select().from(invoices).where(eq(invoices.orderId, paid.orderId))).toHaveLength(1);
  });

  it('refuses a price id that is not the pack’s (400 price_mismatch), and writes no order', async () => {
    const buyer = await teamMember();
    const pack = await packNamed('12 credits');
    for (const start of [startCard, startPaypal]) {
      const response = await start(buyer.token, { ...packBody(pack), price_id: 'price_sandbox_credits_5' });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({ code: 'price_mismatch' });
    }
    expect(await t.db.select().from(orders).where(eq(orders.userId, buyer.id))).toHaveLength(0);
  });

  it('refuses customers (403 team_only) and anonymous callers (401) on both checkout routes', async () => {
    const customer = await newUser();
    const pack = await packNamed('5 credits');
    for (const start of [startCard, startPaypal]) {
      const response = await start(customer.token, packBody(pack));
      expect(response.statusCode).toBe(403);
      expect(response.json()).toMatchObject({ code: 'team_only' });
    }
    for (const url of ['/credits/checkout/payment-intents', '/credits/checkout/paypal/create-order']) {
      expect((await t.app.inject({ method: 'POST', url, payload: packBody(pack) })).statusCode).toBe(401);
    }
    expect(await t.db.select().from(orders).where(eq(orders.userId, customer.id))).toHaveLength(0);
  });

  it('another user cannot sync the order', async () => {
    const paid = await paidByCard();
    const other = await teamMember();
    expect((await sync(other.token, paid.ref)).statusCode).toBe(404);
  });
});

describe('buying a credit pack with PayPal (sandbox)', () => {
  it('create → approve → capture adds the credits once, whatever captures and webhooks follow', async () => {
    const buyer = await teamMember();
    const created = await startPaypal(buyer.token, packBody(await packNamed('5 credits')));
    expect(created.statusCode).toBe(200);
    const { order, quote } = created.json<StartedPaypal>();
    expect(quote).toMatchObject({ kind: 'credit_pack', credits: 5, total_amount: 2975 });
    const page = await t.app.inject({ url: `/sandbox/paypal/checkout?token=${order.id}` });
    expect(page.body).toContain(`Keyport 5 credits (order ${quote.id})`);
    expect((await approve(order.id)).statusCode).toBe(303);

    const captures = await Promise.all(Array.from({ length: 20 }, () => capture(buyer.token, order.id)));
    expect(captures.map((response) => response.statusCode)).toEqual(Array.from({ length: 20 }, () => 200));
    expect(captures[0]!.json()).toMatchObject({ order: { kind: 'credit_pack', status: 'completed' }, key: null });
    await wallet.idle();
    const replays = paypalEvents.filter((event) => event.raw.includes(order.id));
    await Promise.all(
      replays.map((event) =>
        t.app.inject({ method: 'POST', url: '/paypal/webhook', headers: event.headers, payload: event.raw }),
      ),
    );
    expect((await ledgerOf(buyer.id)).map((row) => [row.kind, row.amount, row.sourceRef])).toEqual([
      ['purchase', 5, `order:${quote.id}`],
    ]);
    expect(await accountOf(buyer.id)).toEqual({ balance: 5, owed: 0 });
  });

  it('a PayPal refund takes the credits back', async () => {
    const buyer = await teamMember();
    const { order, quote } = (
      await startPaypal(buyer.token, packBody(await packNamed('5 credits')))
    ).json<StartedPaypal>();
    await approve(order.id);
    expect((await capture(buyer.token, order.id)).statusCode).toBe(200);
    await wallet.refundCapture(order.id, 2975);
    await wallet.idle();
    expect((await orderById(quote.id)).status).toBe('refunded');
    expect(await accountOf(buyer.id)).toEqual({ balance: 0, owed: 0 });
  });
});

describe('refunding a credit pack', () => {
  it('claws the credits back once, issues the credit note and audits it without naming a key', async () => {
    const paid = await paidByCard();
    await cards.refundPayment(paid.ref, 5950);
    await cards.idle();
    const replays = cardEvents.filter((event) => event.raw.includes(paid.ref) && event.raw.includes('refund'));
    await Promise.all(replays.map((event) => sendCardWebhook(event.raw, event.signature)));

    expect((await orderById(paid.orderId)).status).toBe('refunded');
    expect((await ledgerOf(paid.id)).map((row) => [row.kind, row.amount, row.sourceRef])).toEqual([
      ['purchase', 12, `order:${paid.orderId}`],
      ['clawback', -12, `order:${paid.orderId}:refund`],
    ]);
    expect(await accountOf(paid.id)).toEqual({ balance: 0, owed: 0 });
    const notes = await t.db
      .select()
      .from(invoices)
      .where(and(eq(invoices.orderId, paid.orderId), eq(invoices.kind, 'credit_note')));
    expect(notes).toHaveLength(1);
    expect(notes[0]!.lineDescription).toBe('12 Keyport credits');
    const audit = await t.db.select().from(auditLog).where(eq(auditLog.customerUserId, paid.id));
    expect(audit.map((row) => row.action)).toContain('credits.clawed_back');
    expect(audit.some((row) => row.objectType === 'license_key')).toBe(false);
    const [clawback] = audit.filter((row) => row.action === 'credits.clawed_back');
    expect(clawback).toMatchObject({ objectType: 'user', objectId: String(paid.id) });
  });

  it('credits already spent become owed', async () => {
    const paid = await paidByCard();
    await spendCredits(paid.id, 10);
    expect(await accountOf(paid.id)).toEqual({ balance: 2, owed: 0 });
    await cards.refundPayment(paid.ref, 5950);
    await cards.idle();
    expect(await accountOf(paid.id)).toEqual({ balance: 0, owed: 10 });
    const ledger = await ledgerOf(paid.id);
    expect(ledger.at(-1)).toMatchObject({ kind: 'clawback', amount: -12, balanceAfter: 0, owedAfter: 10 });
  });
});

describe('disputing a credit pack (issue 19)', () => {
  it('a chargeback with the funds withdrawn claws the credits back once; the lost dispute adds a credit note', async () => {
    const paid = await paidByCard();
    await cards.disputePayment(paid.ref);
    await cards.idle();
    expect(await orderById(paid.orderId)).toMatchObject({ status: 'disputed', disputeState: 'funds_withdrawn' });
    expect(await accountOf(paid.id)).toEqual({ balance: 0, owed: 0 });
    await cards.closeDispute(paid.ref, 'lost');
    await cards.idle();
    expect(await orderById(paid.orderId)).toMatchObject({ status: 'charged_back', disputeState: 'lost' });
    expect((await ledgerOf(paid.id)).map((row) => [row.kind, row.amount, row.sourceRef])).toEqual([
      ['purchase', 12, `order:${paid.orderId}`],
      ['clawback', -12, `order:${paid.orderId}:dispute`],
    ]);
    const notes = await t.db
      .select()
      .from(invoices)
      .where(and(eq(invoices.orderId, paid.orderId), eq(invoices.kind, 'credit_note')));
    expect(notes).toHaveLength(1);
  });

  it('a PayPal dispute resolved for the seller keeps the credits and the order paid', async () => {
    const buyer = await teamMember();
    const pack = await packNamed('5 credits');
    const { order, quote } = (await startPaypal(buyer.token, packBody(pack))).json<StartedPaypal>();
    await approve(order.id);
    expect((await capture(buyer.token, order.id)).statusCode).toBe(200);
    await wallet.idle();
    await wallet.disputeCapture(order.id);
    await wallet.idle();
    expect(await orderById(quote.id)).toMatchObject({ status: 'disputed', disputeState: 'open' });
    expect(await accountOf(buyer.id)).toEqual({ balance: 5, owed: 0 });
    await wallet.resolveDispute(order.id, 'won');
    await wallet.idle();
    expect(await orderById(quote.id)).toMatchObject({ status: 'completed', disputeState: 'won' });
    expect(await accountOf(buyer.id)).toEqual({ balance: 5, owed: 0 });
  });
});

/** Spends credits as a redemption does (the credits module's debit). */
async function spendCredits(userId: number, amount: number) {
  await t.db.transaction((tx) =>
    t.app.services.credits.debit(tx, { userId, amount, sourceRef: `test-spend:${userId}`, note: 'test' }),
  );
}
