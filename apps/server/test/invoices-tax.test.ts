/**
 * Invoices a tax office accepts (issue 19, ADR 036), on a real database (PGlite, or PostgreSQL with
 * TEST_DATABASE_URL): the VAT in EUR at the ECB rate (the ECB adapter against a local fake of its files; the ECB down
 * at settlement), the seller's own country never reverse charged, VAT rates with start dates and staff's audited
 * additions, the rate a quote used printed on its invoice, countries by name in the address blocks of the PDFs.
 */
import { and, eq, sql } from 'drizzle-orm';
import { PDFParse } from 'pdf-parse';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, invoices, orders, vatRates } from '../src/db/schema';
import { createEcbExchangeRates, ECB_SOURCE } from '../src/integrations/exchange-rates/ecb-adapter';
import {
  createSandboxPaymentProvider,
  type SandboxPaymentProvider,
} from '../src/integrations/payments/sandbox-adapter';
import { latestPublicationDate } from '../src/integrations/exchange-rates/publication-day';
import { createSandboxViesChecker } from '../src/integrations/vies/vies-sandbox';
import { createBillingService } from '../src/modules/billing/billing.service';
import { INVOICE_INCOMPLETE } from '../src/modules/invoices/invoices.service';
import { startFakeEcbRates, type FakeEcbRates } from './fakes/ecb-rates';
import { GERMAN_CONSUMER, ownedKey, tierOf } from './helpers/keys';
import { auth, createTestApp, getTestDatabase, signUp, type TestApp } from './helpers/test-app';
import { testJobs } from './helpers/jobs';

const WEBHOOK_SECRET = 'whsec_test_invoices_tax_suite';
/** The ECB's USD rate on every day the fake publishes: VAT $22.80 is €21.05 (2280 / 1.0832 = 2104.87…). */
const USD_PER_EUR = '1.0832';

let t: TestApp;
let provider: SandboxPaymentProvider;
let ecb: FakeEcbRates;
/**
 * The ECB adapter's own clock, ahead of the real one by `ecbSkew`: its daily file is kept 10 minutes and, after a
 * failure, it waits a minute before asking again (of this clock).
 */
let ecbSkew = 0;
const ecbNow = () => new Date(Date.now() + ecbSkew);
const MINUTE = 60_000;
let people = 0;

/** Every calendar day of the last three weeks and the next one, at the same USD rate. */
function publishedDays() {
  const today = Date.now();
  return Array.from({ length: 28 }, (_, i) => ({
    date: new Date(today + (i - 21) * 86_400_000).toISOString().slice(0, 10),
    rates: { USD: USD_PER_EUR, JPY: '162.12' },
  }));
}

beforeAll(async () => {
  ecb = await startFakeEcbRates(publishedDays());
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
      SELLER_NAME: 'Keyport Themes B.V.',
      SELLER_ADDRESS: 'Damrak 10|1012 LG Amsterdam',
      SELLER_COUNTRY: 'NL',
      SELLER_VAT_ID: 'NL859123456B01',
      SELLER_EMAIL: 'billing@keyport.example',
    },
    {
      payments: provider,
      exchangeRates: createEcbExchangeRates({ baseUrl: ecb.url, timeoutMs: 2000, now: () => ecbNow() }),
    },
  );
});
afterAll(() => ecb.close());

let ips = 0;
const newUser = (label = 'buyer', role?: string) =>
  signUp(t, `${label}-${++people}@example.com`, {
    ip: `10.61.${Math.floor(++ips / 250)}.${(ips % 250) + 1}`,
    ...(role ? { role } : {}),
  });

type Started = { payment_intent: { id: string }; order: { id: number; vat_rate: number; vat_amount: number } };

async function start(token: string, key: string, billing: object): Promise<Started> {
  const response = await t.app.inject({
    method: 'POST',
    url: '/stripe/payment-intents',
    headers: auth(token),
    payload: { price_id: 'price_sandbox_lite_to_regular', theme_type: 'REGULAR', key, billing },
  });
  expect(response.statusCode, response.body).toBe(200);
  return response.json<Started>();
}

async function pay(started: Started) {
  await provider.confirmPayment(started.payment_intent.id, { outcome: 'succeeded' });
  await provider.idle();
}

/** A paid LITE→REGULAR upgrade of a new user's key, through the sandbox and the webhook. */
async function paidUpgrade(billing: object) {
  const user = await newUser();
  const key = await ownedKey(t, user.id, 'LITE');
  const started = await start(user.token, key, billing);
  await pay(started);
  return { user, key, started };
}

const invoiceOf = async (orderId: number, kind: 'invoice' | 'credit_note' = 'invoice') =>
  (
    await t.db
      .select()
      .from(invoices)
      .where(and(eq(invoices.orderId, orderId), eq(invoices.kind, kind)))
  )[0]!;
const pdfOf = (token: string, id: number) =>
  t.app.inject({ method: 'GET', url: `/invoices/${id}/pdf`, headers: auth(token) });

async function pdfText(body: Buffer): Promise<string> {
  const parser = new PDFParse({ data: new Uint8Array(body) });
  try {
    return (await parser.getText()).text.replace(/\s+/g, ' ');
  } finally {
    await parser.destroy();
  }
}

/** The lines of a PDF's text (for the address blocks, whose order matters). */
async function pdfLines(body: Buffer): Promise<string[]> {
  const parser = new PDFParse({ data: new Uint8Array(body) });
  try {
    return (await parser.getText()).text.split('\n').map((line) => line.trim());
  } finally {
    await parser.destroy();
  }
}

const DUTCH_BUSINESS = {
  name: 'Jan de Vries',
  email: 'inkoop@klant.example',
  address: {
    line1: 'Keizersgracht 1',
    line2: null,
    city: 'Amsterdam',
    state: null,
    postal_code: '1015 CJ',
    country: 'NL',
  },
  is_business: true,
  company_name: 'Klant B.V.',
  vat_id: 'NL123456789B01',
};
const GERMAN_BUSINESS = {
  ...GERMAN_CONSUMER,
  email: 'einkauf@kunde.example',
  is_business: true,
  company_name: 'Kunde GmbH',
  vat_id: 'DE123456789',
};
const US_CONSUMER = {
  name: 'Sam Buyer',
  email: 'sam@example.com',
  address: {
    line1: '1 Main St',
    line2: 'Suite 5',
    city: 'Springfield',
    state: 'IL',
    postal_code: '62701',
    country: 'US',
  },
  is_business: false,
  company_name: null,
  vat_id: null,
};

describe('VAT in EUR on EU invoices (VAT directive art. 230)', () => {
  it('a USD order to a German consumer: VAT $22.80 = €21.05 at the ECB rate of the invoice date, rate, date and source stored and printed', async () => {
    const { user, started } = await paidUpgrade(GERMAN_CONSUMER);
    const invoice = await invoiceOf(started.order.id);
    // VAT in EUR = VAT in USD ÷ (USD per EUR), half up to a cent.
    expect(Math.round(2280 / Number(USD_PER_EUR))).toBe(2105);
    expect(invoice).toMatchObject({
      currency: 'usd',
      vatCents: 2280,
      eurLineRequired: true,
      eurRate: USD_PER_EUR,
      eurRateDate: latestPublicationDate(invoice.issuedAt),
      eurRateSource: ECB_SOURCE,
      vatEurCents: 2105,
    });
    const text = await pdfText((await pdfOf(user.token, invoice.id)).rawPayload);
    expect(text).toContain('VAT (19%): $22.80');
    expect(text).toContain('VAT in EUR: €21.05');
    expect(text).toContain(
      `Exchange rate: 1 EUR = 1.0832 USD (ECB euro foreign exchange reference rate of ${invoice.eurRateDate})`,
    );
  });

  it('an EU business (reverse charge) gets the net amount in EUR; a US buyer gets no EUR line', async () => {
    const business = await paidUpgrade(GERMAN_BUSINESS);
    const reverse = await invoiceOf(business.started.order.id);
    expect(reverse).toMatchObject({ reverseCharge: true, eurRate: USD_PER_EUR, vatEurCents: 0 });
    const text = await pdfText((await pdfOf(business.user.token, reverse.id)).rawPayload);
    expect(text).toContain('Net amount in EUR: €110.78'); // 12000 / 1.0832 = 11078.29…
    expect(text).not.toContain('VAT in EUR');

    const american = await paidUpgrade(US_CONSUMER);
    const plain = await invoiceOf(american.started.order.id);
    expect(plain).toMatchObject({ eurLineRequired: false, eurRate: null, vatEurCents: null });
    const usText = await pdfText((await pdfOf(american.user.token, plain.id)).rawPayload);
    expect(usText).not.toContain('EUR');
  });

  it('the ECB down at settlement: the upgrade is applied and invoiced, its PDF waits (503) until the rate is had, then shows it', async () => {
    ecbSkew += 11 * MINUTE; // past the cached daily file
    ecb.down = true;
    let paid: Awaited<ReturnType<typeof paidUpgrade>>;
    try {
      paid = await paidUpgrade(GERMAN_CONSUMER);
      // Nothing was blocked: the money's order completed and the key was upgraded.
      expect(await tierOf(t, paid.key)).toBe('REGULAR');
      const pending = await invoiceOf(paid.started.order.id);
      expect(pending).toMatchObject({ eurLineRequired: true, eurRate: null, vatEurCents: null });
      const refused = await pdfOf(paid.user.token, pending.id);
      expect(refused.statusCode).toBe(503);
      expect(refused.headers['retry-after']).toBe('300');
      expect(refused.json()).toEqual({ error: INVOICE_INCOMPLETE, code: 'invoice_incomplete' });
    } finally {
      ecb.down = false;
    }
    // The ECB is back; the adapter asks again once its minute of waiting is over.
    ecbSkew += MINUTE + 1000;
    const response = await pdfOf(paid.user.token, (await invoiceOf(paid.started.order.id)).id);
    expect(response.statusCode).toBe(200);
    expect(await pdfText(response.rawPayload)).toContain('VAT in EUR: €21.05');
    const completed = await invoiceOf(paid.started.order.id);
    // The rate in force when the invoice was issued, not when it was completed.
    expect(completed).toMatchObject({
      eurRate: USD_PER_EUR,
      eurRateDate: latestPublicationDate(completed.issuedAt),
      vatEurCents: 2105,
    });
    // Filled once: the database refuses any further change.
    await expect(t.db.execute(sql`update invoices set eur_rate = '2.0' where id = ${completed.id}`)).rejects.toThrow();
    await expect(
      t.db.execute(sql`update invoices set total_cents = total_cents where id = ${completed.id}`),
    ).rejects.toThrow();
  });

  it('the background step completes every invoice issued without its EUR line', async () => {
    ecbSkew += 11 * MINUTE;
    ecb.down = true;
    const orders: number[] = [];
    try {
      for (let i = 0; i < 2; i++) orders.push((await paidUpgrade(GERMAN_CONSUMER)).started.order.id);
    } finally {
      ecb.down = false;
    }
    for (const id of orders) expect((await invoiceOf(id)).eurRate).toBeNull();
    ecbSkew += MINUTE + 1000;
    expect(await t.app.services.invoices.completeMissingEurLines()).toBe(2);
    for (const id of orders) expect((await invoiceOf(id)).vatEurCents).toBe(2105);
  });

  it("a credit note converts at its invoice's rate and shows the EUR amount negative", async () => {
    const { user, started } = await paidUpgrade(GERMAN_CONSUMER);
    await provider.refundPayment(started.payment_intent.id, 14_280);
    await provider.idle();
    const invoice = await invoiceOf(started.order.id);
    const creditNote = await invoiceOf(started.order.id, 'credit_note');
    expect(creditNote).toMatchObject({
      eurRate: invoice.eurRate,
      eurRateDate: invoice.eurRateDate,
      eurRateSource: ECB_SOURCE,
      vatEurCents: 2105,
    });
    const text = await pdfText((await pdfOf(user.token, creditNote.id)).rawPayload);
    expect(text).toContain('VAT in EUR: -€21.05');
  });
});

describe("the seller's own country is never reverse charged", () => {
  it('a Dutch business with a VIES-valid Dutch VAT ID pays 21% to a Dutch seller; a German business is still reverse charged', async () => {
    const asker = await newUser('asker');
    const calc = (billing: { address: { country: string }; vat_id: string }) =>
      t.app.inject({
        method: 'POST',
        url: '/stripe/vat/calculate',
        headers: auth(asker.token),
        payload: { amount: 12_000, country_code: billing.address.country, is_business: true, vat_id: billing.vat_id },
      });
    expect((await calc(DUTCH_BUSINESS)).json()).toEqual({
      base_amount: 12_000,
      vat_amount: 2520,
      total_amount: 14_520,
      vat_rate: 21,
      reverse_charge: false,
    });
    expect((await calc(GERMAN_BUSINESS)).json()).toMatchObject({ vat_amount: 0, reverse_charge: true });

    const { user, started } = await paidUpgrade(DUTCH_BUSINESS);
    const [order] = await t.db.select().from(orders).where(eq(orders.id, started.order.id));
    expect(order).toMatchObject({
      reverseCharge: false,
      vatRateBp: 2100,
      vatAmountCents: 2520,
      totalAmountCents: 14_520,
    });
    const text = await pdfText((await pdfOf(user.token, (await invoiceOf(started.order.id)).id)).rawPayload);
    expect(text).toContain('VAT (21%): $25.20');
    expect(text).not.toContain('reverse charge');
  });
});

describe('VAT rates with start dates', () => {
  it('a quote on 2025-06-30 pays Estonia’s 22%, one on 2025-07-01 its 24%', async () => {
    const quoteOn = (iso: string) =>
      createBillingService({
        db: t.db,
        vies: createSandboxViesChecker(),
        verifyLimit: t.app.services.limits.vatChecks,
        audit: t.app.services.audit,
        users: t.app.services.auth,
        sellerCountry: 'NL',
        now: () => new Date(iso),
      }).calculate({ amount: 12_000, country_code: 'ee', is_business: false });
    expect(await quoteOn('2025-06-30T23:59:59Z')).toMatchObject({
      vat_rate: 22,
      vat_amount: 2640,
      total_amount: 14_640,
    });
    expect(await quoteOn('2025-07-01T00:00:00Z')).toMatchObject({
      vat_rate: 24,
      vat_amount: 2880,
      total_amount: 14_880,
    });
  });

  it('the rates in force today: Finland 25.5%, Switzerland 8.1%, Singapore 9%', async () => {
    const asker = await newUser('asker');
    const rate = async (country: string) =>
      (
        await t.app.inject({
          method: 'POST',
          url: '/stripe/vat/calculate',
          headers: auth(asker.token),
          payload: { amount: 10_000, country_code: country, is_business: false },
        })
      ).json<{ vat_rate: number; vat_amount: number }>();
    expect(await rate('FI')).toMatchObject({ vat_rate: 25.5, vat_amount: 2550 });
    expect(await rate('CH')).toMatchObject({ vat_rate: 8.1, vat_amount: 810 });
    expect(await rate('SG')).toMatchObject({ vat_rate: 9, vat_amount: 900 });
  });
});

describe('staff add a rate with its start date (audited)', () => {
  const add = (token: string, body: object) =>
    t.app.inject({ method: 'POST', url: '/staff/vat-rates', headers: auth(token), payload: body });
  const today = () => new Date().toISOString().slice(0, 10);

  it('refuses customers, a missing reason, an unknown country or a date that does not exist, writing nothing', async () => {
    const staff = await newUser('staff-bad', 'staff');
    const customer = await newUser('customer');
    const good = { country: 'EE', rate_bp: 2500, valid_from: today(), reason: 'Estonian budget law' };
    expect((await add(customer.token, good)).statusCode).toBe(403);
    for (const [body, code] of [
      [{ ...good, reason: '' }, 'invalid_request'],
      [{ ...good, country: 'XX' }, 'invalid_country'],
      [{ ...good, country: 'EST' }, 'invalid_request'],
      [{ ...good, valid_from: '2025-02-30' }, 'invalid_date'],
      [{ ...good, valid_from: '1999-12-31' }, 'invalid_date'],
      [{ ...good, rate_bp: 10_001 }, 'invalid_request'],
      [{ ...good, rate_bp: 25.5 }, 'invalid_request'],
    ] as const) {
      const response = await add(staff.token, body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      expect(response.json()).toMatchObject({ code, error: expect.any(String) });
    }
    expect(await t.db.select().from(vatRates)).toEqual([]);
    expect(await t.db.select().from(auditLog).where(eq(auditLog.action, 'vat_rate.added'))).toEqual([]);
  });

  it('applies from its start to new quotes; a quote keeps the rate it used and its invoice prints it', async () => {
    const staff = await newUser('staff', 'staff');
    const added = await add(staff.token, {
      country: 'ee',
      rate_bp: 2500,
      valid_from: today(),
      reason: 'Estonian budget law',
    });
    expect(added.statusCode, added.body).toBe(201);
    expect(added.json()).toMatchObject({
      rate: {
        country: 'EE',
        rate_bp: 2500,
        valid_from: today(),
        source: 'staff',
        in_force: true,
        created_by_email: expect.stringContaining('staff-'),
        reason: 'Estonian budget law',
      },
    });
    const id = added.json<{ rate: { id: number } }>().rate.id;
    const audit = await t.db.select().from(auditLog).where(eq(auditLog.action, 'vat_rate.added'));
    expect(audit).toEqual([
      expect.objectContaining({
        actorType: 'staff',
        actorId: String(staff.id),
        objectType: 'vat_rate',
        objectId: String(id),
        reason: 'Estonian budget law',
        data: { country: 'EE', rateBp: 2500, validFrom: today() },
      }),
    ]);

    // The public table (the browser's estimate) carries it after the built-in rows.
    const table = (await t.app.inject({ url: '/vat-rates' })).json<{
      seller_country: string;
      rates: { country: string; rate_bp: number; valid_from: string | null }[];
    }>();
    expect(table.seller_country).toBe('NL');
    expect(table.rates.at(-1)).toEqual({ country: 'EE', rate_bp: 2500, valid_from: today() });

    // An Estonian consumer's quote now: 25%.
    const estonian = {
      ...GERMAN_CONSUMER,
      address: { ...GERMAN_CONSUMER.address, city: 'Tallinn', postal_code: '10111', country: 'EE' },
    };
    const user = await newUser();
    const key = await ownedKey(t, user.id, 'LITE');
    const started = await start(user.token, key, estonian);
    expect(started.order).toMatchObject({ vat_rate: 25, vat_amount: 3000 });

    // Staff correct it before the customer pays: new quotes get 26%, the quote already made keeps 25%.
    expect(
      (await add(staff.token, { country: 'EE', rate_bp: 2600, valid_from: today(), reason: 'Correction: 26%' }))
        .statusCode,
    ).toBe(201);
    const listed = (await t.app.inject({ url: '/staff/vat-rates', headers: auth(staff.token) })).json<{
      rates: { country: string; rate_bp: number; in_force: boolean; source: string }[];
    }>();
    expect(listed.rates.filter((rate) => rate.country === 'EE' && rate.in_force)).toEqual([
      expect.objectContaining({ rate_bp: 2600, source: 'staff' }),
    ]);
    await pay(started);
    const invoice = await invoiceOf(started.order.id);
    expect(invoice.vatRateBp).toBe(2500);
    const text = await pdfText((await pdfOf(user.token, invoice.id)).rawPayload);
    expect(text).toContain('VAT (25%): $30.00');
    const again = await t.app.inject({
      method: 'POST',
      url: '/stripe/vat/calculate',
      headers: auth(user.token),
      payload: { amount: 12_000, country_code: 'EE', is_business: false },
    });
    expect(again.json()).toMatchObject({ vat_rate: 26, vat_amount: 3120 });
  });
});

describe('countries by name and the address blocks (PDF)', () => {
  it('invoice and credit note: the seller and the buyer with name, company, address, postal code and city, state, country name, VAT ID', async () => {
    const { user, started } = await paidUpgrade(GERMAN_BUSINESS);
    const invoice = await invoiceOf(started.order.id);
    const lines = await pdfLines((await pdfOf(user.token, invoice.id)).rawPayload);
    const block = (heading: string, length: number) => {
      const at = lines.indexOf(heading);
      expect(at, heading).toBeGreaterThanOrEqual(0);
      return lines.slice(at + 1, at + 1 + length);
    };
    expect(block('Seller', 6)).toEqual([
      'Keyport Themes B.V.',
      'Damrak 10',
      '1012 LG Amsterdam',
      'Netherlands',
      'VAT ID: NL859123456B01',
      'billing@keyport.example',
    ]);
    expect(block('Buyer', 7)).toEqual([
      'Greta Kunde',
      'Kunde GmbH',
      'Hauptstraße 1',
      '10115 Berlin',
      'Germany',
      'einkauf@kunde.example',
      'VAT ID: DE123456789',
    ]);
    expect(lines).not.toContain('DE');

    await provider.refundPayment(started.payment_intent.id, 12_000);
    await provider.idle();
    const creditNote = await invoiceOf(started.order.id, 'credit_note');
    const noteLines = await pdfLines((await pdfOf(user.token, creditNote.id)).rawPayload);
    expect(noteLines).toContain('Germany');
    expect(noteLines).toContain('Netherlands');
  });

  it('a state is printed on its own line, and every country by its English name', async () => {
    const { user, started } = await paidUpgrade(US_CONSUMER);
    const lines = await pdfLines((await pdfOf(user.token, (await invoiceOf(started.order.id)).id)).rawPayload);
    const at = lines.indexOf('Buyer');
    expect(lines.slice(at + 1, at + 7)).toEqual([
      'Sam Buyer',
      '1 Main St',
      'Suite 5',
      '62701 Springfield',
      'IL',
      'United States',
    ]);
  });
});
