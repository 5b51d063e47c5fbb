/**
 * Invoices and credit notes of paid upgrades, on a real database (PGlite, or PostgreSQL with TEST_DATABASE_URL):
 * gap-free numbers per year under concurrent fulfilments and after a rollback, the PDF as a tax office reads it
 * (parsed back to text), who may fetch it, and what refunds and disputes do to orders, keys and the audit log.
 */
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import { PDFParse } from 'pdf-parse';
import { beforeAll, describe, expect, it } from 'vitest';
import { auditLog, emailOutbox, invoiceCounters, invoices, licenseKeys, orders } from '../src/db/schema';
import {
  createSandboxPaymentProvider,
  type SandboxPaymentProvider,
} from '../src/integrations/payments/sandbox-adapter';
import { createSandboxExchangeRates } from '../src/integrations/exchange-rates/sandbox-adapter';
import { REVERSE_CHARGE_NOTE } from '../src/modules/invoices/invoice-pdf';
import { createInvoicesService, formatNumber } from '../src/modules/invoices/invoices.service';
import { testJobs } from './helpers/jobs';
import { auth, createTestApp, getTestDatabase, signUp, type TestApp } from './helpers/test-app';
import { GERMAN_CONSUMER, ownedKey, tierOf as tierOfKey } from './helpers/keys';

const WEBHOOK_SECRET = 'whsec_test_invoices_suite';
const PUBLIC_URL = 'https://portal.example.com';

let t: TestApp;
let provider: SandboxPaymentProvider;
let people = 0;

beforeAll(async () => {
  const { db } = await getTestDatabase();
  provider = createSandboxPaymentProvider({
    db,
    webhookSecret: WEBHOOK_SECRET,
    jobs: testJobs(db),
    retry: { maxAttempts: 4, backoff: { baseMs: 10, maxMs: 200 } },
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
  t = await createTestApp(
    {
      PUBLIC_URL,
      SELLER_NAME: 'Keyport Themes Ltd',
      SELLER_ADDRESS: '1 Grand Canal Square|Dublin D02 P820|Ireland',
      SELLER_VAT_ID: 'IE6388047V',
      SELLER_EMAIL: 'billing@keyport.example',
    },
    { payments: provider },
  );
});

let ips = 0;
const newUser = (label = 'buyer', role?: string) =>
  signUp(t, `${label}-${++people}@example.com`, {
    ip: `10.60.${Math.floor(++ips / 250)}.${(ips % 250) + 1}`,
    ...(role ? { role } : {}),
  });

const liteKeyFor = (userId: number) => ownedKey(t, userId, 'LITE');

const tierOf = (apiKey: string) => tierOfKey(t, apiKey);

const GERMAN_BUSINESS = {
  ...GERMAN_CONSUMER,
  email: 'einkauf@kunde.example',
  is_business: true,
  company_name: 'Kunde GmbH',
  vat_id: 'DE 123 456 789',
};

type Started = { payment_intent: { id: string }; order: { id: number; total_amount: number } };
type Listed = {
  invoices: {
    id: number;
    number: string;
    kind: 'invoice' | 'credit_note';
    issued_at: string;
    total: number;
    currency: string;
    order_id: number;
    status: string;
    credited_invoice_number: string | null;
  }[];
};

async function start(token: string, key: string, billing: object = GERMAN_CONSUMER): Promise<Started> {
  const response = await t.app.inject({
    method: 'POST',
    url: '/stripe/payment-intents',
    headers: auth(token),
    payload: { price_id: 'price_sandbox_lite_to_regular', theme_type: 'REGULAR', key, billing },
  });
  expect(response.statusCode, response.body).toBe(200);
  return response.json<Started>();
}

/** A paid LITE→REGULAR upgrade of a new user's key, through the sandbox and the webhook. */
async function paidUpgrade(billing: object = GERMAN_CONSUMER) {
  const user = await newUser();
  const key = await liteKeyFor(user.id);
  const started = await start(user.token, key, billing);
  await provider.confirmPayment(started.payment_intent.id, { outcome: 'succeeded' });
  await provider.idle();
  return { user, key, started };
}

const list = (token: string) => t.app.inject({ method: 'GET', url: '/invoices', headers: auth(token) });
const pdfOf = (token: string | null, id: number) =>
  t.app.inject({ method: 'GET', url: `/invoices/${id}/pdf`, headers: token ? auth(token) : {} });

async function pdfText(body: Buffer): Promise<string> {
  const parser = new PDFParse({ data: new Uint8Array(body) });
  try {
    return (await parser.getText()).text.replace(/\s+/g, ' ');
  } finally {
    await parser.destroy();
  }
}

const year = new Date().getUTCFullYear();

describe('an invoice for every completed order', () => {
  it('lists the invoice with its number, and its PDF shows seller, buyer, line, VAT and total', async () => {
    const { user, key, started } = await paidUpgrade();
    expect(await tierOf(key)).toBe('REGULAR');
    const response = await list(user.token);
    expect(response.statusCode).toBe(200);
    const [invoice, ...rest] = response.json<Listed>().invoices;
    expect(rest).toHaveLength(0);
    expect(invoice).toMatchObject({
      kind: 'invoice',
      number: expect.stringMatching(new RegExp(`^${year}-\\d{6}$`)),
      total: 14_280,
      currency: 'usd',
      order_id: started.order.id,
      status: 'completed',
      credited_invoice_number: null,
    });

    const pdf = await pdfOf(user.token, invoice!.id);
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect(pdf.headers['content-disposition']).toBe(`attachment; filename="keyport-invoice-${invoice!.number}.pdf"`);
    expect(pdf.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    const text = await pdfText(pdf.rawPayload);
    for (const expected of [
      'Invoice',
      `Invoice number: ${invoice!.number}`,
      'Keyport Themes Ltd',
      '1 Grand Canal Square',
      'VAT ID: IE6388047V',
      'billing@keyport.example',
      'Greta Kunde',
      'Hauptstraße 1',
      `License upgrade LITE to REGULAR, license key ${key}`,
      'Subtotal: $120.00',
      'VAT (19%): $22.80',
      'Total paid: $142.80 (USD)',
      `payment ${started.payment_intent.id}`,
    ]) {
      expect(text).toContain(expected);
    }
    expect(text).not.toContain('reverse charge');

    // The receipt email points at the invoices tab.
    const [receipt] = await t.db.select().from(emailOutbox).where(eq(emailOutbox.to, GERMAN_CONSUMER.email));
    expect(receipt!.body).toContain(`${PUBLIC_URL}/customer/my-keys?settings=invoices`);
    // The old receipt route still answers: the order's invoice.
    const old = await t.app.inject({
      method: 'GET',
      url: `/upgrades/orders/${started.order.id}/receipt`,
      headers: auth(user.token),
    });
    expect(old.statusCode).toBe(200);
    expect(await pdfText(old.rawPayload)).toContain(`Invoice number: ${invoice!.number}`);
  });

  it('shows the reverse-charge note with the buyer VAT ID and the VIES consultation number for an EU business', async () => {
    const { user, started } = await paidUpgrade(GERMAN_BUSINESS);
    const [order] = await t.db.select().from(orders).where(eq(orders.id, started.order.id));
    expect(order!.reverseCharge).toBe(true);
    expect(order!.vatConsultationNumber).toBeTruthy();
    const [invoice] = (await list(user.token)).json<Listed>().invoices;
    expect(invoice!.total).toBe(12_000);
    const text = await pdfText((await pdfOf(user.token, invoice!.id)).rawPayload);
    expect(text).toContain('Kunde GmbH');
    expect(text).toContain(`${REVERSE_CHARGE_NOTE}.`);
    expect(text).toContain(
      'VAT to be accounted for by the recipient (reverse charge, Article 196 of Council Directive 2006/112/EC)',
    );
    expect(text).toContain(`Buyer VAT ID: ${order!.vatId}`);
    expect(order!.vatId).toBe('DE123456789');
    expect(text).toContain(`VIES consultation number: ${order!.vatConsultationNumber}`);
    expect(text).toContain('Total paid: $120.00 (USD)');
  });

  it("answers 404 for another user's invoice, 200 for staff, 401 without a session and 400 for a bad id", async () => {
    const { user } = await paidUpgrade();
    const [invoice] = (await list(user.token)).json<Listed>().invoices;
    const stranger = await newUser('stranger');
    const other = await pdfOf(stranger.token, invoice!.id);
    expect(other.statusCode).toBe(404);
    expect(other.json()).toEqual({ error: 'Invoice not found.', code: 'invoice_not_found' });
    expect((await pdfOf(stranger.token, 999_999)).json()).toEqual(other.json());
    expect((await list(stranger.token)).json<Listed>().invoices).toEqual([]);
    const staff = await newUser('staff', 'staff');
    const asStaff = await pdfOf(staff.token, invoice!.id);
    expect(asStaff.statusCode).toBe(200);
    expect(asStaff.headers['content-type']).toBe('application/pdf');
    expect((await pdfOf(null, invoice!.id)).statusCode).toBe(401);
    const bad = await pdfOf(user.token, 'abc' as unknown as number);
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ code: expect.any(String), error: expect.any(String) });
  });
});

describe('gap-free numbering', () => {
  it('numbers 50 concurrent fulfilments 1…50 without gaps or repeats; a rolled-back issue leaves no gap', async () => {
    await t.db.execute(sql`truncate table invoices, invoice_counters, audit_log restart identity cascade`);
    const buyers = await Promise.all(
      Array.from({ length: 51 }, async () => {
        const user = await newUser('many');
        const key = await liteKeyFor(user.id);
        return { user, key, started: await start(user.token, key) };
      }),
    );
    const [last, ...fifty] = buyers;
    // 50 payments succeed at once: 50 webhook deliveries settle 50 orders in 50 concurrent transactions.
    await Promise.all(
      fifty.map(({ started }) => provider.confirmPayment(started.payment_intent.id, { outcome: 'succeeded' })),
    );
    await provider.idle();
    const issued = await t.db
      .select()
      .from(invoices)
      .where(and(eq(invoices.kind, 'invoice'), eq(invoices.year, year)))
      .orderBy(asc(invoices.sequence));
    expect(issued.map((row) => row.sequence)).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));
    expect(new Set(issued.map((row) => row.number)).size).toBe(50);
    expect(new Set(issued.map((row) => row.orderId))).toEqual(new Set(fifty.map((b) => b.started.order.id)));
    expect(issued[49]!.number).toBe(`${year}-000050`);
    for (const { key } of fifty) expect(await tierOf(key)).toBe('REGULAR');

    // A transaction that numbered an invoice and then failed takes its number back with it.
    const [order] = await t.db.select().from(orders).where(eq(orders.id, last!.started.order.id));
    await expect(
      t.db.transaction(async (tx) => {
        await t.app.services.invoices.orderCompleted(tx, {
          ...order!,
          status: 'completed',
          paymentCompletedAt: new Date(),
        });
        throw new Error('the fulfilment failed after numbering');
      }),
    ).rejects.toThrow('the fulfilment failed after numbering');
    const [counter] = await t.db
      .select()
      .from(invoiceCounters)
      .where(and(eq(invoiceCounters.series, 'invoice'), eq(invoiceCounters.year, year)));
    expect(counter!.lastNumber).toBe(50);

    await provider.confirmPayment(last!.started.payment_intent.id, { outcome: 'succeeded' });
    await provider.idle();
    const [next] = (await list(last!.user.token)).json<Listed>().invoices;
    expect(next!.number).toBe(`${year}-000051`);
    // Each of the 51 cards is authorized, then captured by the server, then settled: two webhook hops per order.
  }, 120_000);
});

describe('a series per calendar year', () => {
  it('starts each year at 000001, for invoices and credit notes separately (UTC years)', async () => {
    const orderIds = await Promise.all(
      [1, 2, 3].map(async () => {
        const user = await newUser('years');
        return (await start(user.token, await liteKeyFor(user.id))).order.id;
      }),
    );
    const rows = await t.db.select().from(orders).where(inArray(orders.id, orderIds));
    const byId = new Map(rows.map((row) => [row.id, row]));
    const at = (iso: string) =>
      createInvoicesService({
        db: t.db,
        seller: { name: 'Keyport Themes Ltd', address: [], vatId: null, email: null },
        audit: t.app.services.audit,
        exchangeRates: createSandboxExchangeRates(),
        log: { info: () => {}, warn: () => {}, error: () => {} },
        now: () => new Date(iso),
      });
    const issue = (iso: string, orderId: number) =>
      t.db.transaction((tx) =>
        at(iso).orderCompleted(tx, { ...byId.get(orderId)!, status: 'completed', paymentCompletedAt: new Date(iso) }),
      );
    expect((await issue('2031-12-31T23:59:59.000Z', orderIds[0]!)).number).toBe('2031-000001');
    expect((await issue('2032-01-01T00:00:01.000Z', orderIds[1]!)).number).toBe('2032-000001');
    expect((await issue('2031-12-31T23:59:59.500Z', orderIds[2]!)).number).toBe('2031-000002');
    const refunded = { ...byId.get(orderIds[0]!)!, status: 'refunded' as const, refundedAt: new Date() };
    const creditNote = await t.db.transaction((tx) =>
      at('2032-02-01T10:00:00.000Z').orderRefunded(tx, refunded, { kind: 'upgrade', tierReverted: null }),
    );
    expect(creditNote!.number).toBe('CN-2032-000001');
  });
});

const auditFor = (userId: number) =>
  t.db.select().from(auditLog).where(eq(auditLog.customerUserId, userId)).orderBy(asc(auditLog.id));

describe('refunds and disputes', () => {
  it('a full refund issues a credit note, marks the order refunded, reverts the tier and says so in the audit log', async () => {
    const { user, key, started } = await paidUpgrade();
    await provider.refundPayment(started.payment_intent.id, 14_280);
    await provider.idle();
    expect(await tierOf(key)).toBe('LITE');
    const listed = (await list(user.token)).json<Listed>().invoices;
    expect(listed.map((row) => row.kind)).toEqual(['credit_note', 'invoice']);
    const [creditNote, invoice] = listed;
    expect(creditNote).toMatchObject({
      number: expect.stringMatching(new RegExp(`^CN-${year}-\\d{6}$`)),
      total: 14_280,
      status: 'refunded',
      order_id: started.order.id,
      credited_invoice_number: invoice!.number,
    });
    expect(invoice!.status).toBe('refunded');
    const pdf = await pdfOf(user.token, creditNote!.id);
    expect(pdf.headers['content-disposition']).toContain(`keyport-credit-note-${creditNote!.number}.pdf`);
    const text = await pdfText(pdf.rawPayload);
    expect(text).toContain('Credit note');
    expect(text).toContain(`Credit note number: ${creditNote!.number}`);
    expect(text).toContain(`Credit note for invoice: ${invoice!.number}`);
    expect(text).toContain('Total credited: -$142.80 (USD)');

    const actions = (await auditFor(user.id)).map((row) => row.action);
    expect(actions).toEqual([
      'order.completed',
      'invoice.issued',
      'order.refunded',
      'upgrade.reverted',
      'credit_note.issued',
    ]);
    // A replayed refund changes nothing: no second credit note, no second entry.
    await provider.idle();
    expect((await list(user.token)).json<Listed>().invoices).toHaveLength(2);
  });

  it('keeps the tier when the key moved on since (another upgrade used it), and the audit log says why', async () => {
    const { user, key, started } = await paidUpgrade();
    // The REGULAR the order gave was used for a further upgrade to PRO.
    await t.db.update(licenseKeys).set({ tier: 'PRO' }).where(eq(licenseKeys.apiKey, key));
    await provider.refundPayment(started.payment_intent.id, 14_280);
    await provider.idle();
    expect(await tierOf(key)).toBe('PRO');
    const entries = await auditFor(user.id);
    const kept = entries.find((row) => row.action === 'upgrade.kept');
    expect(kept?.reason).toContain('changed since');
    expect(entries.map((row) => row.action)).toContain('credit_note.issued');
  });

  it('a partial refund leaves the order, the tier and the documents as they are', async () => {
    const { user, key, started } = await paidUpgrade();
    await provider.refundPayment(started.payment_intent.id, 1_000);
    await provider.idle();
    expect(await tierOf(key)).toBe('REGULAR');
    expect((await list(user.token)).json<Listed>().invoices.map((row) => row.kind)).toEqual(['invoice']);
  });

  it('a dispute marks the order disputed and writes order.disputed; a refund afterwards still credits it', async () => {
    const { user, key, started } = await paidUpgrade();
    // Without its funds withdrawn (an inquiry): the upgrade stays while the dispute is open.
    await provider.disputePayment(started.payment_intent.id, { fundsWithdrawn: false });
    await provider.idle();
    const [order] = await t.db.select().from(orders).where(eq(orders.id, started.order.id));
    expect(order!.status).toBe('disputed');
    const disputed = (await auditFor(user.id)).filter((row) => row.action === 'order.disputed');
    expect(disputed).toHaveLength(1);
    expect(disputed[0]).toMatchObject({
      actorType: 'provider',
      actorId: 'sandbox',
      objectType: 'order',
      objectId: String(started.order.id),
      reason: 'charge.dispute.created',
    });
    expect((await list(user.token)).json<Listed>().invoices[0]!.status).toBe('disputed');

    await provider.refundPayment(started.payment_intent.id, 14_280);
    await provider.idle();
    expect(await tierOf(key)).toBe('LITE');
    const actions = (await auditFor(user.id)).map((row) => row.action);
    expect(actions.slice(-3)).toEqual(['order.refunded', 'upgrade.reverted', 'credit_note.issued']);
  });
});

describe('chargebacks (issue 19)', () => {
  it('a lost chargeback keeps the tier when the key moved on since, credits the invoice and audits each step', async () => {
    const { user, key, started } = await paidUpgrade();
    // The REGULAR the order gave was used for a further upgrade to PRO before the bank took the money back.
    await t.db.update(licenseKeys).set({ tier: 'PRO' }).where(eq(licenseKeys.apiKey, key));
    await provider.disputePayment(started.payment_intent.id);
    await provider.idle();
    await provider.closeDispute(started.payment_intent.id, 'lost');
    await provider.idle();
    expect(await tierOf(key)).toBe('PRO');
    const [order] = await t.db.select().from(orders).where(eq(orders.id, started.order.id));
    expect(order).toMatchObject({ status: 'charged_back', disputeState: 'lost' });
    const actions = (await auditFor(user.id)).map((row) => row.action);
    expect(actions).toEqual([
      'order.completed',
      'invoice.issued',
      'order.disputed',
      'order.dispute_funds_withdrawn',
      'upgrade.kept',
      'credit_note.issued',
      'order.dispute_lost',
    ]);
    const listed = (await list(user.token)).json<Listed>().invoices;
    expect(listed.map((row) => [row.kind, row.status])).toEqual([
      ['credit_note', 'charged_back'],
      ['invoice', 'charged_back'],
    ]);
  });
});

/** The statement fails, and it is the append-only trigger that refused it (not some other error). */
async function expectRefused(statement: PromiseLike<unknown>) {
  const error = await Promise.resolve(statement).then(
    () => null,
    (failure: unknown) => failure as Error & { cause?: Error },
  );
  expect(error, 'the statement should have been refused').not.toBeNull();
  expect(`${error!.message} ${error!.cause?.message ?? ''}`).toMatch(/rows are append-only: (UPDATE|DELETE) refused/);
}

describe('issued documents and the audit log cannot be changed', () => {
  it('the database refuses UPDATE and DELETE of audit rows and invoices', async () => {
    const { user } = await paidUpgrade();
    const [entry] = await auditFor(user.id);
    expect(entry).toBeDefined();
    await expectRefused(t.db.update(auditLog).set({ reason: 'rewritten' }).where(eq(auditLog.id, entry!.id)));
    await expectRefused(t.db.delete(auditLog).where(eq(auditLog.id, entry!.id)));
    await expectRefused(t.db.execute(sql`delete from audit_log`));
    const [invoice] = await t.db.select().from(invoices).where(eq(invoices.userId, user.id));
    await expectRefused(t.db.update(invoices).set({ totalCents: 1 }).where(eq(invoices.id, invoice!.id)));
    await expectRefused(t.db.delete(invoices).where(eq(invoices.id, invoice!.id)));
    const [after] = await auditFor(user.id);
    expect(after).toEqual(entry);
    const [unchanged] = await t.db.select().from(invoices).where(eq(invoices.id, invoice!.id));
    expect(unchanged).toEqual(invoice);
  });
});

describe('one document of each kind per order and round (ADR 035)', () => {
  /** The statement fails on the unique index named (not on some other error). */
  async function expectUniqueViolation(statement: PromiseLike<unknown>, index: string) {
    const error = await Promise.resolve(statement).then(
      () => null,
      (failure: unknown) => failure as Error & { cause?: Error },
    );
    expect(error, 'the insert should have been refused').not.toBeNull();
    expect(`${error!.message} ${error!.cause?.message ?? ''}`).toContain(index);
  }

  it('refuses a second credit note of an invoice and a second invoice of a round, however they are issued', async () => {
    const { started } = await paidUpgrade();
    await provider.disputePayment(started.payment_intent.id);
    await provider.idle();
    const [invoice, creditNote] = await t.db
      .select()
      .from(invoices)
      .where(eq(invoices.orderId, started.order.id))
      .orderBy(asc(invoices.id));
    expect([invoice!.kind, creditNote!.kind]).toEqual(['invoice', 'credit_note']);
    const copy = ({ id: _id, ...row }: typeof invoice & object, sequence: number) => ({
      ...row,
      sequence,
      number: formatNumber(row.kind, row.year, sequence),
    });
    // Another credit note of the same round, or of the same invoice in another round: refused.
    await expectUniqueViolation(
      t.db.insert(invoices).values(copy(creditNote!, 900_001)),
      'invoices_one_per_order_kind_and_round',
    );
    await expectUniqueViolation(
      t.db.insert(invoices).values({ ...copy(creditNote!, 900_002), round: 2 }),
      'invoices_one_credit_note_per_invoice',
    );
    // Another invoice of round 1: refused; round 2 (the invoice issued again after a won dispute) is allowed.
    await expectUniqueViolation(
      t.db.insert(invoices).values(copy(invoice!, 900_003)),
      'invoices_one_per_order_kind_and_round',
    );
    const [again] = await t.db
      .insert(invoices)
      .values({ ...copy(invoice!, 900_004), round: 2 })
      .returning();
    expect(again).toMatchObject({ kind: 'invoice', round: 2, orderId: started.order.id });
  });
});

describe('GET /staff/audit-log', () => {
  it('lists entries newest first for staff, filtered by customer and action; others get 403', async () => {
    const { user, started } = await paidUpgrade();
    const staff = await newUser('auditor', 'staff');
    const response = await t.app.inject({
      method: 'GET',
      url: `/staff/audit-log?customer_user_id=${user.id}&action=invoice.issued`,
      headers: auth(staff.token),
    });
    expect(response.statusCode).toBe(200);
    const { entries } = response.json<{ entries: Record<string, unknown>[] }>();
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({
      action: 'invoice.issued',
      actor_type: 'system',
      customer_user_id: user.id,
      data: { orderId: started.order.id },
    });
    const all = (
      await t.app.inject({
        method: 'GET',
        url: `/staff/audit-log?customer_user_id=${user.id}`,
        headers: auth(staff.token),
      })
    ).json<{ entries: { action: string }[] }>().entries;
    expect(all.map((row) => row.action)).toEqual(['invoice.issued', 'order.completed']);
    expect((await t.app.inject({ method: 'GET', url: '/staff/audit-log', headers: auth(user.token) })).statusCode).toBe(
      403,
    );
    const bad = await t.app.inject({
      method: 'GET',
      url: '/staff/audit-log?customer_user_id=abc',
      headers: auth(staff.token),
    });
    expect(bad.statusCode).toBe(400);
  });
});
