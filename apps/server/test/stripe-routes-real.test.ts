import { and, asc, eq } from 'drizzle-orm';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, invoices, orders } from '../src/db/schema';
import {
  createSandboxExchangeRates,
  SANDBOX_RATES,
  SANDBOX_SOURCE,
} from '../src/integrations/exchange-rates/sandbox-adapter';
import { toEurCents } from '../src/modules/invoices/eur-line';
import { confirmWithTestCard, startFakeStripeApi, type FakeStripeApi } from './fakes/stripe-api';
import { auth, createTestApp, signUp, type TestApp } from './helpers/test-app';
import { GERMAN_CONSUMER, ownedKey, tierOf as tierOfKey } from './helpers/keys';

/**
 * The card routes with the Stripe adapter (chosen by config, as in production), pointed at the local fake of Stripe's
 * API: cards are authorized by the browser and captured by the server after its claim (issue 19), and dispute events
 * — signed exactly as Stripe signs them — are verified, deduplicated and applied as the dispute re-read from Stripe
 * says, never as the event's body says.
 */
const WEBHOOK_SECRET = 'whsec_test_stripe_routes_real';
let fake: FakeStripeApi;
let t: TestApp;

beforeAll(async () => {
  fake = await startFakeStripeApi();
  t = await createTestApp({
    STRIPE_SECRET_KEY: fake.secretKey,
    STRIPE_PUBLISHABLE_KEY: 'pk_test_keyport_routes',
    STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
    STRIPE_API_BASE: fake.url.origin,
    PUBLIC_URL: 'https://portal.example.com',
  });
});
afterAll(() => fake.close());

let people = 0;
const newUser = () => signUp(t, `stripe-real-${++people}@example.com`, { ip: `10.43.0.${people}` });
const tierOf = (apiKey: string) => tierOfKey(t, apiKey);

const sync = (token: string, ref: string) =>
  t.app.inject({ method: 'POST', url: `/stripe/payment-intents/${ref}/sync`, headers: auth(token) });

let events = 0;
/** An event signed as Stripe signs it (the SDK's own test header), sent to the webhook route. */
function send(type: string, object: Record<string, unknown>, secret = WEBHOOK_SECRET, id = `evt_real_${++events}`) {
  const payload = JSON.stringify({
    id,
    object: 'event',
    type,
    created: Math.floor(Date.now() / 1000),
    data: { object },
  });
  return t.app.inject({
    method: 'POST',
    url: '/stripe/webhook',
    headers: {
      'content-type': 'application/json',
      'stripe-signature': Stripe.webhooks.generateTestHeaderString({ payload, secret }),
    },
    payload,
  });
}

/** What an invoice issued again copies from the one it replaces. */
const SNAPSHOT = [
  'userId',
  'seller',
  'buyer',
  'lineDescription',
  'currency',
  'subtotalCents',
  'vatRateBp',
  'vatCents',
  'totalCents',
  'reverseCharge',
  'buyerVatId',
  'vatConsultationNumber',
  'provider',
  'providerPaymentId',
  'eurLineRequired',
] as const;
const pick = <T extends object, K extends keyof T>(row: T, keys: readonly K[]) =>
  Object.fromEntries(keys.map((key) => [key, row[key]]));
/** The order's invoices and credit notes, in the order they were issued. */
const documentsOf = (orderId: number) =>
  t.db.select().from(invoices).where(eq(invoices.orderId, orderId)).orderBy(asc(invoices.id));
/** Every audit entry about the customer, oldest first. */
const entriesOf = (userId: number) =>
  t.db.select().from(auditLog).where(eq(auditLog.customerUserId, userId)).orderBy(asc(auditLog.id));
const orderRow = async (id: number) => (await t.db.select().from(orders).where(eq(orders.id, id)))[0]!;
const actionsOf = async (orderId: number) =>
  (
    await t.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.objectType, 'order'), eq(auditLog.objectId, String(orderId))))
      .orderBy(asc(auditLog.id))
  ).map((row) => row.action);

/** A LITE→REGULAR upgrade paid by card at the fake: authorized by the test card, captured by the sync. */
async function paidUpgrade() {
  const user = await newUser();
  const key = await ownedKey(t, user.id, 'LITE');
  // Staff set Stripe's price id; the sandbox's are not Stripe's.
  await t.app.services.upgrades.savePrices(
    user.id,
    [{ path: 'LITE_TO_REGULAR', amount_cents: 12_000, price_id: 'price_real_lite_regular' }],
    'test prices',
  );
  const started = await t.app.inject({
    method: 'POST',
    url: '/stripe/payment-intents',
    headers: auth(user.token),
    payload: { price_id: 'price_real_lite_regular', theme_type: 'REGULAR', key, billing: GERMAN_CONSUMER },
  });
  expect(started.statusCode).toBe(200);
  const { payment_intent, order } = started.json<{ payment_intent: { id: string }; order: { id: number } }>();
  return { ...user, key, ref: payment_intent.id, orderId: order.id };
}

describe('card payments with the Stripe adapter: authorized by the browser, captured by the server', () => {
  it('creates a manual-capture intent; the sync captures it once the upgrade is checked, and fulfils it', async () => {
    const { token, key, ref, orderId } = await paidUpgrade();
    expect(fake.intents.get(ref)).toMatchObject({ capture_method: 'manual', amount: 14_280 });
    expect((await confirmWithTestCard(fake, ref, 'pm_card_visa')).body).toMatchObject({ status: 'requires_capture' });
    expect(await tierOf(key)).toBe('LITE'); // authorized only: nothing charged, nothing given yet

    const synced = await sync(token, ref);
    expect(synced.statusCode).toBe(200);
    expect(synced.json()).toMatchObject({ order: { status: 'completed' }, key: { api_key: key } });
    expect(fake.intents.get(ref)!.status).toBe('succeeded');
    const captures = fake.requests.filter((request) => request.path === `/v1/payment_intents/${ref}/capture`);
    expect(captures).toHaveLength(1);
    expect(captures[0]!.idempotencyKey).toMatch(new RegExp(`^keyport-capture-${orderId}-\\d+$`));
    expect(await tierOf(key)).toBe('REGULAR');
    // Stripe's own events afterwards change nothing more.
    expect((await send('payment_intent.succeeded', { id: ref, object: 'payment_intent' })).statusCode).toBe(200);
    expect((await sync(token, ref)).json()).toMatchObject({ order: { status: 'completed' } });
    expect(fake.requests.filter((request) => request.path === `/v1/payment_intents/${ref}/capture`)).toHaveLength(1);
  });

  it('payment_intent.amount_capturable_updated captures an authorized card when the tab was closed', async () => {
    const { key, ref, orderId } = await paidUpgrade();
    await confirmWithTestCard(fake, ref, 'pm_card_visa');
    const response = await send('payment_intent.amount_capturable_updated', { id: ref, object: 'payment_intent' });
    expect(response.statusCode).toBe(200);
    expect((await orderRow(orderId)).status).toBe('completed');
    expect(fake.intents.get(ref)!.status).toBe('succeeded');
    expect(await tierOf(key)).toBe('REGULAR');
  });

  it('a token redeemed between the authorization and the capture: the authorization is released, not captured', async () => {
    const { token, key, ref, orderId } = await paidUpgrade();
    await confirmWithTestCard(fake, ref, 'pm_card_visa');
    const staff = await signUp(t, `stripe-real-staff-${++people}@example.com`, { role: 'staff', ip: '10.43.1.1' });
    const minted = await t.app.inject({
      method: 'POST',
      url: '/staff/upgrade-tokens',
      headers: auth(staff.token),
      payload: { path: 'LITE_TO_PRO', count: 1, reason: 'test' },
    });
    const redeemed = await t.app.inject({
      method: 'POST',
      url: '/keys/upgrade/l2p',
      headers: auth(token),
      payload: { upgradeKey: minted.json<{ tokens: string[] }>().tokens[0], licenseKey: key },
    });
    expect(redeemed.statusCode).toBe(200);
    expect(fake.intents.get(ref)!.status).toBe('canceled');
    const synced = await sync(token, ref);
    expect(synced.statusCode).toBe(409);
    expect(synced.json()).toEqual({
      error: 'This upgrade no longer applies: the license is PRO now. Nothing was charged.',
      code: 'order_void',
    });
    expect(fake.requests.some((request) => request.path === `/v1/payment_intents/${ref}/capture`)).toBe(false);
    expect((await orderRow(orderId)).status).toBe('void');
  });
});

describe('disputes with correctly signed Stripe events, re-read from Stripe', () => {
  async function capturedUpgrade() {
    const paid = await paidUpgrade();
    await confirmWithTestCard(fake, paid.ref, 'pm_card_visa');
    expect((await sync(paid.token, paid.ref)).statusCode).toBe(200);
    return paid;
  }
  const disputeObject = (dispute: { id: string; payment_intent: string }, status: string) => ({
    id: dispute.id,
    object: 'dispute',
    payment_intent: dispute.payment_intent,
    status,
  });

  it('created + funds_withdrawn: disputed and the tier taken back; closed lost: charged back with a credit note', async () => {
    const { key, ref, orderId } = await capturedUpgrade();
    const dispute = fake.dispute(ref);
    expect((await send('charge.dispute.created', disputeObject(dispute, 'needs_response'))).json()).toEqual({
      received: true,
      duplicate: false,
    });
    expect(await orderRow(orderId)).toMatchObject({
      status: 'disputed',
      disputeState: 'funds_withdrawn',
      disputeRef: dispute.id,
    });
    expect(await tierOf(key)).toBe('LITE');
    // The money left the seller: the invoice is credited now, not when the dispute closes.
    expect((await documentsOf(orderId)).map((document) => document.kind)).toEqual(['invoice', 'credit_note']);
    await send('charge.dispute.funds_withdrawn', disputeObject(dispute, 'needs_response'));
    expect(await tierOf(key)).toBe('LITE');
    expect(await documentsOf(orderId)).toHaveLength(2);

    fake.closeDispute(dispute.id, 'lost');
    const closed = await send('charge.dispute.closed', disputeObject(dispute, 'lost'), WEBHOOK_SECRET, 'evt_closed_1');
    expect(closed.statusCode).toBe(200);
    expect(await orderRow(orderId)).toMatchObject({ status: 'charged_back', disputeState: 'lost' });
    expect(await tierOf(key)).toBe('LITE');
    // Exactly one credit note: the one of the withdrawal (lost credits nothing twice).
    const documents = await documentsOf(orderId);
    expect(documents.map((document) => document.kind)).toEqual(['invoice', 'credit_note']);
    expect(documents[1]).toMatchObject({ creditedInvoiceId: documents[0]!.id, round: 1 });
    expect(await actionsOf(orderId)).toEqual([
      'order.completed',
      'order.disputed',
      'order.dispute_funds_withdrawn',
      'order.dispute_lost',
    ]);
    const keyEntries = await t.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.objectType, 'license_key'), eq(auditLog.action, 'upgrade.reverted')));
    expect(keyEntries.filter((row) => (row.data as { orderId?: number }).orderId === orderId)).toHaveLength(1);
    // The same event again: deduplicated, nothing more (no second credit note).
    const replay = await send('charge.dispute.closed', disputeObject(dispute, 'lost'), WEBHOOK_SECRET, 'evt_closed_1');
    expect(replay.json()).toEqual({ received: true, duplicate: true });
    expect(await t.db.select().from(invoices).where(eq(invoices.orderId, orderId))).toHaveLength(2);
  });

  it('funds_withdrawn: the invoice gets its credit note then, the tier goes back, each step audited; a replay changes nothing', async () => {
    const { key, ref, orderId, ...user } = await capturedUpgrade();
    const dispute = fake.dispute(ref);
    const withdrawn = await send(
      'charge.dispute.funds_withdrawn',
      disputeObject(dispute, 'needs_response'),
      WEBHOOK_SECRET,
      `evt_withdrawn_${orderId}`,
    );
    expect(withdrawn.json()).toEqual({ received: true, duplicate: false });
    expect(await orderRow(orderId)).toMatchObject({ status: 'disputed', disputeState: 'funds_withdrawn' });
    expect(await tierOf(key)).toBe('LITE');
    const [invoice, creditNote, ...more] = await documentsOf(orderId);
    expect(more).toEqual([]);
    expect(invoice).toMatchObject({ kind: 'invoice', round: 1 });
    expect(creditNote).toMatchObject({
      kind: 'credit_note',
      round: 1,
      creditedInvoiceId: invoice!.id,
      totalCents: invoice!.totalCents,
      buyer: invoice!.buyer,
      eurRate: invoice!.eurRate,
    });
    expect(creditNote!.number).toMatch(/^CN-\d{4}-\d{6}$/);
    const entries = await entriesOf(user.id);
    expect(entries.map((entry) => entry.action)).toEqual([
      'order.completed',
      'invoice.issued',
      'order.disputed',
      'order.dispute_funds_withdrawn',
      'upgrade.reverted',
      'credit_note.issued',
    ]);
    expect(entries.at(-1)!.data).toMatchObject({ number: creditNote!.number, invoiceNumber: invoice!.number });

    // The same event again, and a later delivery of the same state: nothing more.
    const replay = await send(
      'charge.dispute.funds_withdrawn',
      disputeObject(dispute, 'needs_response'),
      WEBHOOK_SECRET,
      `evt_withdrawn_${orderId}`,
    );
    expect(replay.json()).toEqual({ received: true, duplicate: true });
    expect((await send('charge.dispute.updated', disputeObject(dispute, 'under_review'))).statusCode).toBe(200);
    expect(await documentsOf(orderId)).toEqual([invoice, creditNote]);
    expect(await entriesOf(user.id)).toEqual(entries);
  });

  it('won after the funds were withdrawn: paid again, the upgrade given back and the invoice issued again', async () => {
    const { key, ref, orderId, ...user } = await capturedUpgrade();
    const dispute = fake.dispute(ref);
    await send('charge.dispute.funds_withdrawn', disputeObject(dispute, 'needs_response'));
    expect(await tierOf(key)).toBe('LITE');
    fake.closeDispute(dispute.id, 'won');
    await send('charge.dispute.funds_reinstated', disputeObject(dispute, 'won'));
    await send('charge.dispute.closed', disputeObject(dispute, 'won'));
    expect(await orderRow(orderId)).toMatchObject({ status: 'completed', disputeState: 'won' });
    expect(await tierOf(key)).toBe('REGULAR');
    expect(await actionsOf(orderId)).toEqual([
      'order.completed',
      'order.disputed',
      'order.dispute_funds_withdrawn',
      'order.dispute_won',
    ]);

    // The invoice credited at the withdrawal is issued again: a new number, dated now, the same snapshot, and its
    // VAT in EUR at today's rate, there at once (fetched before the transaction).
    const [first, creditNote, second, ...more] = await documentsOf(orderId);
    expect(more).toEqual([]);
    expect([first!.kind, creditNote!.kind, second!.kind]).toEqual(['invoice', 'credit_note', 'invoice']);
    expect(creditNote!.creditedInvoiceId).toBe(first!.id);
    expect(second!.round).toBe(2);
    expect(second!.number).toMatch(/^\d{4}-\d{6}$/);
    expect(second!.number).not.toBe(first!.number);
    expect(second!.issuedAt.getTime()).toBeGreaterThanOrEqual(creditNote!.issuedAt.getTime());
    expect(second!.paymentDate.getTime()).toBe(second!.issuedAt.getTime());
    const snapshot = (document: typeof first) => pick(document!, SNAPSHOT);
    expect(snapshot(second!)).toEqual(snapshot(first!));
    expect(second).toMatchObject({
      eurLineRequired: true,
      eurRate: SANDBOX_RATES.USD,
      eurRateSource: SANDBOX_SOURCE,
      eurRateDate: (await createSandboxExchangeRates().eurRateAt('USD', second!.issuedAt)).date,
      vatEurCents: toEurCents(second!.vatCents, SANDBOX_RATES.USD!),
    });
    const reissued = (await entriesOf(user.id)).filter((entry) => entry.action === 'invoice.issued');
    expect(reissued.map((entry) => entry.data)).toEqual([
      expect.objectContaining({ number: first!.number, orderId }),
      expect.objectContaining({ number: second!.number, orderId, replacesInvoiceNumber: first!.number }),
    ]);

    // Settings → Invoices lists the three documents of the order, oldest first.
    const listed = await t.app.inject({ url: '/orders', headers: auth(user.token) });
    expect(listed.statusCode).toBe(200);
    const order = listed
      .json<{
        orders: {
          id: number;
          documents: { id: number; kind: string; number: string; credited_invoice_number: string | null }[];
        }[];
      }>()
      .orders.find((row) => row.id === orderId)!;
    expect(order.documents).toEqual([
      expect.objectContaining({ id: first!.id, kind: 'invoice', number: first!.number, credited_invoice_number: null }),
      expect.objectContaining({ id: creditNote!.id, kind: 'credit_note', credited_invoice_number: first!.number }),
      expect.objectContaining({
        id: second!.id,
        kind: 'invoice',
        number: second!.number,
        credited_invoice_number: null,
      }),
    ]);
    // Each document's PDF for its buyer; 404 for another customer. The order's receipt is its latest invoice.
    const other = await newUser();
    for (const document of [first!, creditNote!, second!]) {
      const pdf = await t.app.inject({ url: `/invoices/${document.id}/pdf`, headers: auth(user.token) });
      expect(pdf.statusCode, pdf.body).toBe(200);
      expect(pdf.headers['content-disposition']).toContain(document.number);
      const theirs = await t.app.inject({ url: `/invoices/${document.id}/pdf`, headers: auth(other.token) });
      expect(theirs.statusCode).toBe(404);
    }
    const receipt = await t.app.inject({ url: `/upgrades/orders/${orderId}/receipt`, headers: auth(user.token) });
    expect(receipt.statusCode).toBe(200);
    expect(receipt.headers['content-disposition']).toBe(`attachment; filename="keyport-invoice-${second!.number}.pdf"`);
    expect(
      (await t.app.inject({ url: `/upgrades/orders/${orderId}/receipt`, headers: auth(other.token) })).statusCode,
    ).toBe(404);

    // Should the money go back again, the invoice that stands now is the one credited: the second, once.
    const again = await t.app.services.invoices.orderChargedBack(t.db, await orderRow(orderId));
    expect(again).toMatchObject({ kind: 'credit_note', round: 2, creditedInvoiceId: second!.id });
    expect(await t.app.services.invoices.orderChargedBack(t.db, await orderRow(orderId))).toBeNull();
  });

  it('the same funds_withdrawn delivered many times at once, and other events of the dispute racing it: one credit note', async () => {
    const { ref, orderId, ...user } = await capturedUpgrade();
    const dispute = fake.dispute(ref);
    const body = disputeObject(dispute, 'needs_response');
    const same = await Promise.all(
      Array.from({ length: 8 }, () =>
        send('charge.dispute.funds_withdrawn', body, WEBHOOK_SECRET, `evt_race_${orderId}`),
      ),
    );
    expect(same.map((response) => response.statusCode)).toEqual(Array(8).fill(200));
    expect(same.filter((response) => response.json<{ duplicate: boolean }>().duplicate === false)).toHaveLength(1);
    expect((await documentsOf(orderId)).map((document) => document.kind)).toEqual(['invoice', 'credit_note']);
    // Distinct events of the same dispute at once (created, updated, funds_withdrawn), then the loss racing them.
    const distinct = ['charge.dispute.created', 'charge.dispute.updated', 'charge.dispute.funds_withdrawn'];
    const firstWave = Promise.all(distinct.map((type) => send(type, body)));
    fake.closeDispute(dispute.id, 'lost');
    const lost = Promise.all(
      Array.from({ length: 4 }, () => send('charge.dispute.closed', disputeObject(dispute, 'lost'))),
    );
    expect([...(await firstWave), ...(await lost)].map((response) => response.statusCode)).toEqual(Array(7).fill(200));
    expect(await orderRow(orderId)).toMatchObject({ status: 'charged_back', disputeState: 'lost' });
    const documents = await documentsOf(orderId);
    expect(documents.map((document) => document.kind)).toEqual(['invoice', 'credit_note']);
    const actions = (await entriesOf(user.id)).map((entry) => entry.action);
    expect(actions.filter((action) => action === 'credit_note.issued')).toHaveLength(1);
    expect(actions.filter((action) => action === 'upgrade.reverted')).toHaveLength(1);
  });

  it('lost without a withdrawal event first: one credit note, as before', async () => {
    const { key, ref, orderId } = await capturedUpgrade();
    const dispute = fake.dispute(ref);
    fake.closeDispute(dispute.id, 'lost');
    expect((await send('charge.dispute.closed', disputeObject(dispute, 'lost'))).statusCode).toBe(200);
    expect(await orderRow(orderId)).toMatchObject({ status: 'charged_back', disputeState: 'lost' });
    expect(await tierOf(key)).toBe('LITE');
    expect((await documentsOf(orderId)).map((document) => document.kind)).toEqual(['invoice', 'credit_note']);
  });

  it('follows the dispute as Stripe says it is, not as the event body claims; refuses a forged signature', async () => {
    const { key, ref, orderId } = await capturedUpgrade();
    const dispute = fake.dispute(ref, { fundsWithdrawn: false });
    // The body says lost; Stripe says it is an open inquiry: the order is disputed, nothing is taken back.
    expect((await send('charge.dispute.closed', disputeObject(dispute, 'lost'))).statusCode).toBe(200);
    expect(await orderRow(orderId)).toMatchObject({ status: 'disputed', disputeState: 'open' });
    expect(await tierOf(key)).toBe('REGULAR');

    const forged = await send('charge.dispute.closed', disputeObject(dispute, 'lost'), 'whsec_not_ours');
    expect(forged.statusCode).toBe(400);
    expect(forged.json()).toEqual({ error: 'Invalid webhook signature.', code: 'invalid_signature' });

    // The inquiry is closed in the seller's favour: paid again, the tier never moved.
    fake.closeDispute(dispute.id, 'won');
    await send('charge.dispute.closed', disputeObject(dispute, 'warning_closed'));
    expect(await orderRow(orderId)).toMatchObject({ status: 'completed', disputeState: 'won' });
    expect(await tierOf(key)).toBe('REGULAR');

    // A dispute that names another payment than Stripe's dispute does: ignored.
    const other = await capturedUpgrade();
    const theirs = fake.dispute(other.ref);
    const mismatched = await send('charge.dispute.created', {
      ...disputeObject(theirs, 'needs_response'),
      payment_intent: ref,
    });
    expect(mismatched.statusCode).toBe(200);
    expect((await orderRow(orderId)).status).toBe('completed');
  });

  it('staff see disputed orders with their dispute state', async () => {
    const { ref, orderId } = await capturedUpgrade();
    const dispute = fake.dispute(ref);
    await send('charge.dispute.created', disputeObject(dispute, 'needs_response'));
    const staff = await signUp(t, `stripe-real-staff-${++people}@example.com`, { role: 'staff', ip: '10.43.1.2' });
    const listed = await t.app.inject({ url: '/staff/orders?status=disputed', headers: auth(staff.token) });
    expect(listed.statusCode).toBe(200);
    const orders = listed.json<{ orders: { id: number; status: string; dispute_state: string | null }[] }>().orders;
    expect(orders).toContainEqual(
      expect.objectContaining({
        id: orderId,
        status: 'disputed',
        dispute_state: 'funds_withdrawn',
        dispute_ref: dispute.id,
      }),
    );
    expect(orders.every((order) => order.status === 'disputed')).toBe(true);
  });
});
