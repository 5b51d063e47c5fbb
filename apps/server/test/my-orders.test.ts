/**
 * Settings → Invoices (issue 21): GET /orders is one list of the caller's orders — license upgrades and credit packs
 * from the one orders table, each with its invoice, and the legacy store's orders — on a real database. Before, a team
 * member with two paid invoices saw "No purchases yet" (the tab read only the legacy orders) and the demo user saw
 * "Order #1" twice (one number from each table); since migration 0017 the legacy orders are rows of the one table.
 */
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import type { MyOrder } from '@keyport/shared/contracts/invoices';
import { legacyOrderValues } from '../src/db/legacy-orders';
import { creditPacks, orders } from '../src/db/schema';
import {
  createSandboxPaymentProvider,
  type SandboxPaymentProvider,
} from '../src/integrations/payments/sandbox-adapter';
import { QUICK_SANDBOX_RETRY, testJobs } from './helpers/jobs';
import { auth, createTestApp, getTestDatabase, signUp, type TestApp } from './helpers/test-app';
import { GERMAN_CONSUMER, ownedKey } from './helpers/keys';

let t: TestApp;
let cards: SandboxPaymentProvider;

beforeAll(async () => {
  const { db } = await getTestDatabase();
  cards = createSandboxPaymentProvider({
    db,
    webhookSecret: 'whsec_test_my_orders',
    jobs: testJobs(db),
    retry: QUICK_SANDBOX_RETRY,
    deliver: async (raw, signature) => {
      const response = await t.app.inject({
        method: 'POST',
        url: '/stripe/webhook',
        headers: { 'content-type': 'application/json', 'stripe-signature': signature },
        payload: raw,
      });
      return { statusCode: response.statusCode };
    },
  });
  t = await createTestApp({}, { payments: cards });
});

let people = 0;
const newUser = (role?: string) =>
  signUp(t, `orders-${++people}@example.com`, { role, ip: `10.71.${Math.floor(people / 250)}.${(people % 250) + 1}` });

const myOrders = (token: string) => t.app.inject({ method: 'GET', url: '/orders', headers: auth(token) });
const confirm = (token: string, ref: string) =>
  t.app.inject({
    method: 'POST',
    url: '/sandbox/stripe/confirm',
    headers: auth(token),
    payload: { payment_intent_id: ref, card_number: '4242 4242 4242 4242' },
  });
type Started = { payment_intent: { id: string }; order: { id: number } };

async function startUpgrade(token: string, key: string): Promise<Started> {
  const response = await t.app.inject({
    method: 'POST',
    url: '/stripe/payment-intents',
    headers: auth(token),
    payload: { price_id: 'price_sandbox_lite_to_regular', theme_type: 'REGULAR', key, billing: GERMAN_CONSUMER },
  });
  expect(response.statusCode, response.body).toBe(200);
  return response.json<Started>();
}

async function paid(token: string, started: Started) {
  expect((await confirm(token, started.payment_intent.id)).statusCode).toBe(200);
  await cards.idle();
  return started.order.id;
}

async function buyPack(token: string) {
  const [pack] = await t.db.select().from(creditPacks).where(eq(creditPacks.name, '12 credits'));
  const response = await t.app.inject({
    method: 'POST',
    url: '/credits/checkout/payment-intents',
    headers: auth(token),
    payload: { pack_id: pack!.id, price_id: pack!.providerPriceId, billing: GERMAN_CONSUMER },
  });
  expect(response.statusCode, response.body).toBe(200);
  return paid(token, response.json<Started>());
}

describe('GET /orders', () => {
  it("lists a team member's paid upgrade and credit pack, each with its invoice, newest first", async () => {
    const member = await newUser('team');
    const key = await ownedKey(t, member.id, 'LITE');
    const upgradeId = await paid(member.token, await startUpgrade(member.token, key));
    const packId = await buyPack(member.token);
    // Started and never paid: not a purchase.
    await startUpgrade(member.token, await ownedKey(t, member.id, 'LITE'));

    const response = await myOrders(member.token);
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('private, no-store');
    const list = response.json<{ orders: MyOrder[] }>().orders;
    const year = new Date().getUTCFullYear();
    const invoice = {
      id: expect.any(Number),
      kind: 'invoice',
      number: expect.stringMatching(new RegExp(`^${year}-\\d{6}$`)),
      issued_at: expect.any(String),
      currency: 'usd',
      credited_invoice_number: null,
    };
    expect(list).toEqual([
      {
        kind: 'credit_pack',
        id: packId,
        description: '12 Keyport credits',
        license_key: null,
        created_at: expect.any(String),
        subtotal: 5000,
        vat_amount: 950,
        total: 5950,
        vat_rate_bp: 1900,
        reverse_charge: false,
        currency: 'usd',
        status: 'completed',
        documents: [{ ...invoice, total: 5950 }],
      },
      {
        kind: 'upgrade',
        id: upgradeId,
        description: 'License upgrade LITE to REGULAR',
        license_key: key,
        created_at: expect.any(String),
        subtotal: 12000,
        vat_amount: 2280,
        total: 14280,
        vat_rate_bp: 1900,
        reverse_charge: false,
        currency: 'usd',
        status: 'completed',
        documents: [{ ...invoice, total: 14280 }],
      },
    ]);
    // The same documents as GET /invoices lists, with their orders' statuses there.
    const invoices = (await t.app.inject({ method: 'GET', url: '/invoices', headers: auth(member.token) })).json<{
      invoices: { id: number; order_id: number; status: string }[];
    }>().invoices;
    expect(invoices.map(({ id, order_id, status }) => ({ id, order_id, status }))).toEqual([
      { id: list[0]!.documents[0]!.id, order_id: packId, status: 'completed' },
      { id: list[1]!.documents[0]!.id, order_id: upgradeId, status: 'completed' },
    ]);
  });

  it("lists the legacy store's orders once each, numbered in the one table, by date among the paid ones", async () => {
    const buyer = await newUser();
    const legacyIds = await t.db
      .insert(orders)
      .values([
        legacyOrderValues({
          userId: buyer.id,
          description: 'Theme license',
          createdAt: new Date('2024-03-01T00:00:00Z'),
        }),
        legacyOrderValues({
          userId: buyer.id,
          description: 'Theme license renewal',
          createdAt: new Date('2025-03-01T00:00:00Z'),
        }),
      ])
      .returning({ id: orders.id });
    const upgradeId = await paid(buyer.token, await startUpgrade(buyer.token, await ownedKey(t, buyer.id, 'LITE')));

    const list = (await myOrders(buyer.token)).json<{ orders: MyOrder[] }>().orders;
    expect(
      list.map(({ kind, id, description, created_at, total, status, documents }) => ({
        kind,
        id,
        description,
        created_at,
        total,
        status,
        documents: documents.length,
      })),
    ).toEqual([
      {
        kind: 'upgrade',
        id: upgradeId,
        description: 'License upgrade LITE to REGULAR',
        created_at: expect.any(String),
        total: 14280,
        status: 'completed',
        documents: 1,
      },
      {
        kind: 'legacy',
        id: legacyIds[1]!.id,
        description: 'Theme license renewal',
        created_at: '2025-03-01T00:00:00.000Z',
        total: null,
        status: null,
        documents: 0,
      },
      {
        kind: 'legacy',
        id: legacyIds[0]!.id,
        description: 'Theme license',
        created_at: '2024-03-01T00:00:00.000Z',
        total: null,
        status: null,
        documents: 0,
      },
    ]);
  });

  it("answers only the caller's own orders, and 401 without a session", async () => {
    const buyer = await newUser();
    await paid(buyer.token, await startUpgrade(buyer.token, await ownedKey(t, buyer.id, 'LITE')));
    const other = await newUser();
    expect((await myOrders(other.token)).json()).toEqual({ orders: [] });
    const anonymous = await t.app.inject({ method: 'GET', url: '/orders' });
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json()).toMatchObject({ error: 'Authentication required' });
  });
});
