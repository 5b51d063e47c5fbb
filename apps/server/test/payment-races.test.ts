/**
 * Issue 19, "prove it": 50-way races on one key mixing card payments (start, confirm with a test card, sync), PayPal
 * payments (create, approve, capture) and token redemptions, with the sandboxes' webhooks arriving in between. Every
 * race must end with at most one capture (card or PayPal) — and then no token spent — and never a `needs_refund`, a
 * stuck claim or a card authorization left holding money. Run on PGlite and on PostgreSQL (TEST_DATABASE_URL); each
 * race prints what happened (`RACE {…}`), the figures ADR 035 reports.
 */
import { eq, inArray } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  licenseKeys,
  licenseKeyTierChanges,
  sandboxPaypalOrders,
  sandboxPayments,
  orders,
  upgradeTokens,
} from '../src/db/schema';
import {
  createSandboxPaymentProvider,
  type SandboxPaymentProvider,
} from '../src/integrations/payments/sandbox-adapter';
import { createSandboxPaypalProvider, type SandboxPaypalProvider } from '../src/integrations/paypal/sandbox-adapter';
import type { Jobs } from '../src/modules/jobs/jobs.service';
import { startedTestJobs } from './helpers/jobs';
import { auth, createTestApp, getTestDatabase, signUp, type TestApp } from './helpers/test-app';
import { GERMAN_CONSUMER, ownedKey, paypalOrderBody } from './helpers/keys';

let t: TestApp;
let card: SandboxPaymentProvider;
let wallet: SandboxPaypalProvider;

let jobs: Jobs;
afterAll(() => jobs.stop());

beforeAll(async () => {
  const { db } = await getTestDatabase();
  jobs = startedTestJobs(db);
  card = createSandboxPaymentProvider({
    db,
    webhookSecret: 'whsec_payment_races',
    jobs,
    retry: { maxAttempts: 3, backoff: { baseMs: 20, maxMs: 50 } },
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
  wallet = createSandboxPaypalProvider({
    db,
    webhookSecret: 'paypal_payment_races',
    jobs,
    retry: { maxAttempts: 3, backoff: { baseMs: 20, maxMs: 50 } },
    deliver: async (raw, headers) => {
      const response = await t.app.inject({ method: 'POST', url: '/paypal/webhook', headers, payload: raw });
      return { statusCode: response.statusCode };
    },
  });
  t = await createTestApp(
    {
      UPGRADE_TOKEN_RATE_LIMIT_MAX: '1000',
      UPGRADE_TOKEN_RATE_LIMIT_MAX_PER_IP: '1000',
      RATE_LIMIT_PER_MINUTE: '100000',
    },
    { payments: card, paypal: wallet },
  );
});

let people = 0;
const jitter = (max: number) => new Promise((resolve) => setTimeout(resolve, Math.floor(Math.random() * max)));
const pick = <T>(items: readonly T[]): T => items[Math.floor(Math.random() * items.length)]!;

type Outcome = string;
const outcomeOf = (response: LightMyRequestResponse): Outcome =>
  response.statusCode < 300
    ? 'ok'
    : `${response.statusCode}:${(response.json<{ code?: string }>().code ?? 'unknown').toString()}`;

/** The two ways to each tier, so orders both reuse and supersede each other. */
const TARGETS = [
  { theme_type: 'REGULAR', price_id: 'price_sandbox_lite_to_regular' },
  { theme_type: 'PRO', price_id: 'price_sandbox_lite_to_pro' },
] as const;

async function mintTokens(staffToken: string, path: 'LITE_TO_REGULAR' | 'LITE_TO_PRO', count: number) {
  if (count === 0) return [];
  const response = await t.app.inject({
    method: 'POST',
    url: '/staff/upgrade-tokens',
    headers: auth(staffToken),
    payload: { path, count, reason: 'races' },
  });
  expect(response.statusCode).toBe(201);
  return response.json<{ tokens: string[] }>().tokens.map((token) => ({ token, path }));
}

interface RaceShape {
  name: string;
  cards: number;
  paypals: number;
  tokens: number;
  /** Extra actors that capture or sync whatever order refs the payers published (50 in all). */
  finishers: number;
  /** Token actors wait up to this long first (0: all at once). */
  tokenDelayMs: number;
  /** Every payer asks for the same upgrade (their orders are reused, not replaced); else each picks one. */
  sameQuote?: boolean;
  /** Token actors start once a card was authorized or a PayPal order approved: they race the capture itself. */
  tokensAfterApproval?: boolean;
}

async function race(shape: RaceShape) {
  const user = await signUp(t, `racer-${++people}@example.com`, { ip: `10.70.${people >> 8}.${people & 255}` });
  const staff = await signUp(t, `race-staff-${++people}@example.com`, {
    role: 'staff',
    ip: `10.71.${people >> 8}.${people & 255}`,
  });
  const key = await ownedKey(t, user.id, 'LITE');
  const tokens = [
    ...(await mintTokens(staff.token, 'LITE_TO_REGULAR', Math.ceil(shape.tokens / 2))),
    ...(await mintTokens(staff.token, 'LITE_TO_PRO', Math.floor(shape.tokens / 2))),
  ];
  const cardRefs: string[] = [];
  const paypalRefs: string[] = [];
  const outcomes: Record<string, Record<Outcome, number>> = { card: {}, paypal: {}, token: {}, finisher: {} };
  const count = (actor: string, outcome: Outcome) => {
    outcomes[actor]![outcome] = (outcomes[actor]![outcome] ?? 0) + 1;
  };
  const inject = (method: 'POST', url: string, payload: object) =>
    t.app.inject({ method, url, headers: auth(user.token), payload });

  const target = () => (shape.sameQuote ? TARGETS[0] : pick(TARGETS));
  let approved!: () => void;
  const firstApproval = new Promise<void>((resolve) => (approved = resolve));
  const cardActor = async () => {
    await jitter(20);
    const started = await inject('POST', '/stripe/payment-intents', { ...target(), key, billing: GERMAN_CONSUMER });
    if (started.statusCode !== 200) return count('card', `start ${outcomeOf(started)}`);
    const ref = started.json<{ payment_intent: { id: string } }>().payment_intent.id;
    cardRefs.push(ref);
    const confirmed = await inject('POST', '/sandbox/stripe/confirm', {
      payment_intent_id: ref,
      card_number: '4242424242424242',
    });
    if (confirmed.statusCode !== 200) return count('card', `confirm ${outcomeOf(confirmed)}`);
    approved();
    const synced = await inject('POST', `/stripe/payment-intents/${ref}/sync`, {});
    const status = synced.statusCode === 200 ? synced.json<{ order: { status: string } }>().order.status : '';
    count('card', `sync ${outcomeOf(synced)}${status ? ` ${status}` : ''}`);
  };
  const paypalActor = async () => {
    await jitter(20);
    const created = await inject('POST', '/stripe/paypal/create-order', { ...paypalOrderBody(key), ...target() });
    if (created.statusCode !== 200) return count('paypal', `create ${outcomeOf(created)}`);
    const ref = created.json<{ order: { id: string } }>().order.id;
    paypalRefs.push(ref);
    await t.app.inject({
      method: 'POST',
      url: '/sandbox/paypal/checkout',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ token: ref, action: 'approve' }).toString(),
    });
    approved();
    const captured = await inject('POST', '/stripe/paypal/capture-order', { order_id: ref });
    const status = captured.statusCode === 200 ? captured.json<{ order: { status: string } }>().order.status : '';
    count('paypal', `capture ${outcomeOf(captured)}${status ? ` ${status}` : ''}`);
  };
  const tokenActor = async (token: { token: string; path: string }) => {
    if (shape.tokensAfterApproval) await Promise.race([firstApproval, jitter(10_000)]);
    await jitter(shape.tokenDelayMs || 20);
    const route = token.path === 'LITE_TO_PRO' ? 'l2p' : 'regular';
    const redeemed = await inject('POST', `/keys/upgrade/${route}`, { upgradeKey: token.token, licenseKey: key });
    count('token', outcomeOf(redeemed));
  };
  const finisher = async () => {
    await jitter(150);
    // Another tab of a payer: waits (a little) until some payment was started, then captures or syncs it.
    for (let waited = 0; cardRefs.length + paypalRefs.length === 0 && waited < 100; waited++) await jitter(40);
    if (cardRefs.length === 0 && paypalRefs.length === 0) return count('finisher', 'nothing published');
    const useCard = paypalRefs.length === 0 || (cardRefs.length > 0 && Math.random() < 0.5);
    const response = useCard
      ? await inject('POST', `/stripe/payment-intents/${pick(cardRefs)}/sync`, {})
      : await inject('POST', '/stripe/paypal/capture-order', { order_id: pick(paypalRefs) });
    count('finisher', `${useCard ? 'sync' : 'capture'} ${outcomeOf(response)}`);
  };

  await Promise.all([
    ...Array.from({ length: shape.cards }, cardActor),
    ...Array.from({ length: shape.paypals }, paypalActor),
    ...tokens.map(tokenActor),
    ...Array.from({ length: shape.finishers }, finisher),
  ]);
  await card.idle();
  await wallet.idle();

  const keyOrders = await t.db.select().from(orders).where(eq(orders.licenseKey, key));
  const orderIds = keyOrders.map((order) => String(order.id));
  const cardPayments = (await t.db.select().from(sandboxPayments)).filter((row) =>
    orderIds.includes(row.metadata.order_id ?? ''),
  );
  const paypalOrders =
    orderIds.length === 0
      ? []
      : await t.db.select().from(sandboxPaypalOrders).where(inArray(sandboxPaypalOrders.customId, orderIds));
  const [keyRow] = await t.db.select().from(licenseKeys).where(eq(licenseKeys.apiKey, key));
  const tierChanges = await t.db
    .select()
    .from(licenseKeyTierChanges)
    .where(eq(licenseKeyTierChanges.licenseKeyId, keyRow!.id));
  const spent = await t.db.select().from(upgradeTokens).where(eq(upgradeTokens.usedOnKeyId, keyRow!.id));
  const statuses: Record<string, number> = {};
  for (const order of keyOrders) statuses[order.status] = (statuses[order.status] ?? 0) + 1;
  const figures = {
    race: shape.name,
    actors: shape.cards + shape.paypals + shape.tokens + shape.finishers,
    cardCaptures: cardPayments.filter((row) => row.status === 'succeeded').length,
    paypalCaptures: paypalOrders.filter((row) => row.status === 'COMPLETED').length,
    tokensSpent: spent.length,
    tier: keyRow!.tier,
    tierChanges: tierChanges.length,
    orders: statuses,
    authorizationsLeft: cardPayments.filter((row) => row.status === 'requires_capture').length,
    outcomes,
  };
  console.log(`RACE ${JSON.stringify(figures)}`);

  const captures = figures.cardCaptures + figures.paypalCaptures;
  expect(captures).toBeLessThanOrEqual(1);
  expect(captures + figures.tokensSpent).toBeLessThanOrEqual(1);
  expect(statuses.needs_refund ?? 0).toBe(0);
  expect(statuses.review ?? 0).toBe(0);
  expect(statuses.capturing ?? 0).toBe(0);
  expect(statuses.completed ?? 0).toBe(captures);
  expect(figures.authorizationsLeft).toBe(0);
  expect(figures.tierChanges).toBe(captures + figures.tokensSpent);
  expect(figures.tier === 'LITE').toBe(figures.tierChanges === 0);
  return figures;
}

const SHAPES: RaceShape[] = [
  { name: 'all at once', cards: 10, paypals: 10, tokens: 30, finishers: 0, tokenDelayMs: 0 },
  { name: 'tokens arrive during the captures', cards: 10, paypals: 10, tokens: 20, finishers: 10, tokenDelayMs: 250 },
  { name: 'payments only, captured from many tabs', cards: 10, paypals: 10, tokens: 0, finishers: 30, tokenDelayMs: 0 },
  { name: 'few tokens, late', cards: 10, paypals: 10, tokens: 4, finishers: 26, tokenDelayMs: 400 },
  {
    name: 'one card quote from many tabs, tokens during its capture',
    cards: 15,
    paypals: 0,
    tokens: 20,
    finishers: 15,
    tokenDelayMs: 30,
    sameQuote: true,
    tokensAfterApproval: true,
  },
  {
    name: 'one PayPal quote from many tabs, tokens during its capture',
    cards: 0,
    paypals: 15,
    tokens: 20,
    finishers: 15,
    tokenDelayMs: 30,
    sameQuote: true,
    tokensAfterApproval: true,
  },
];

describe('50-way races on one key: card confirm, PayPal capture, token redemption', () => {
  for (const shape of SHAPES) {
    for (const round of [1, 2]) {
      it(`${shape.name} (#${round}): at most one capture, never needs_refund`, async () => {
        await race(shape);
      }, 120_000);
    }
  }
});
