import { and, eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { REPORT_ROW_REASONS } from '@keyport/shared/domain/store-report';
import {
  auditLog,
  creditAccounts,
  creditRedemptions,
  emailOutbox,
  licenseKeys,
  storeReports,
  userStores,
} from '../src/db/schema';
import { ownedKey } from './helpers/keys';
import { ledgerSum as ledgerSumOf } from './helpers/credits';
import { auth, createTestApp, signUp, type TestApp } from './helpers/test-app';

let t: TestApp;
let people = 0;
let stores = 0;
let staffToken = '';

beforeAll(async () => {
  t = await createTestApp();
  staffToken = (await signUp(t, 'credits-staff@example.com', { role: 'staff', ip: '10.62.0.1' })).token;
});

const newUser = (role?: string) =>
  signUp(t, `credits-${++people}@example.com`, {
    ip: `10.62.${Math.floor(people / 250) + 1}.${(people % 250) + 1}`,
    ...(role ? { role } : {}),
  });
const emailOf = (n: number) => `credits-${n}@example.com`;
/** Five fresh store domains nobody reported. */
const freshStores = () => Array.from({ length: 5 }, () => `pirate-${++stores}-shop.com`);

const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, token?: string, payload?: object) =>
  t.app.inject({
    method,
    url,
    ...(token ? { headers: auth(token) } : {}),
    ...(payload === undefined ? {} : { payload }),
  });

async function grant(email: string, amount: number, note = 'test credits') {
  const response = await call('POST', '/staff/credits', staffToken, { email, amount, reason: note });
  expect(response.statusCode, response.body).toBe(200);
  return response.json<{ balance: number; owed: number }>();
}

async function product(values: { grant_type?: string; grant_value: string; cost_credits: number; name?: string }) {
  const response = await call('POST', '/staff/redeem-products', staffToken, {
    name: values.name ?? `${values.grant_value} License`,
    description: 'A license',
    grant_type: values.grant_type ?? 'license_level',
    grant_value: values.grant_value,
    cost_credits: values.cost_credits,
    reason: 'test product',
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json<{ redeem_product: { id: number } }>().redeem_product.id;
}

async function balanceOf(token: string) {
  const response = await call('GET', '/credits/balance', token);
  expect(response.statusCode).toBe(200);
  return response.json<{ balance: number; owed: number; pending: number; can_report: boolean }>();
}

const ledgerSum = (userId: number) => ledgerSumOf(t, userId);

const report = (token: string, storeDomains: string[]) =>
  call('POST', '/credits/report-store', token, { storeDomains });

describe('access', () => {
  it('every credit route refuses anonymous callers (401)', async () => {
    for (const [method, url] of [
      ['GET', '/credits/balance'],
      ['GET', '/credits/history'],
      ['GET', '/credits/redeem-products'],
      ['POST', '/credits/redeem'],
      ['POST', '/keys/create'],
      ['POST', '/credits/report-store'],
      ['POST', '/staff/credits'],
      ['GET', '/staff/redeem-products'],
      ['GET', '/staff/reports'],
      ['POST', '/staff/reports/1/approve'],
    ] as const) {
      const response = await call(method, url, undefined, method === 'GET' ? undefined : {});
      expect(response.statusCode, `${method} ${url}`).toBe(401);
    }
  });

  it('staff routes are refused to customers and team members (403)', async () => {
    for (const role of [undefined, 'team']) {
      const { token } = await newUser(role);
      for (const [method, url, payload] of [
        ['POST', '/staff/credits', { email: 'x@example.com', amount: 5, reason: 'because' }],
        ['GET', '/staff/redeem-products', undefined],
        ['POST', '/staff/redeem-products', {}],
        ['PUT', '/staff/redeem-products/1', {}],
        ['DELETE', '/staff/redeem-products/1', undefined],
        ['GET', '/staff/reports', undefined],
        ['POST', '/staff/reports/1/approve', {}],
        ['POST', '/staff/reports/1/reject', { reason: 'because' }],
      ] as const) {
        const response = await call(method, url, token, payload);
        expect(response.statusCode, `${role ?? 'customer'} ${method} ${url}`).toBe(403);
      }
    }
  });

  it('a caller sees only their own balance and history', async () => {
    const a = await newUser();
    const b = await newUser();
    await grant(emailOf(people - 1), 4);
    expect(await balanceOf(a.token)).toEqual({ balance: 4, owed: 0, pending: 0, can_report: true });
    expect(await balanceOf(b.token)).toEqual({ balance: 0, owed: 0, pending: 0, can_report: true });
    const history = await call('GET', '/credits/history', b.token);
    expect(history.json()).toEqual({ entries: [] });
    const own = await call('GET', '/credits/history', a.token);
    expect(own.json<{ entries: unknown[] }>().entries).toEqual([
      expect.objectContaining({
        kind: 'grant',
        state: 'available',
        amount: 4,
        balance_after: 4,
        reason: 'Added by our team',
        note: 'test credits',
      }),
    ]);
  });
});

describe('buying a license with credits', () => {
  it('50 concurrent redeems against a balance of 23 at 5 credits mint exactly 4 keys', async () => {
    const productId = await product({ grant_value: 'regular', cost_credits: 5, name: 'Race REGULAR' });
    const { token, id } = await newUser();
    await grant(emailOf(people), 23);
    const responses = await Promise.all(
      Array.from({ length: 50 }, () => call('POST', '/credits/redeem', token, { redeem_product_id: productId })),
    );
    const ok = responses.filter((response) => response.statusCode === 200);
    expect(ok).toHaveLength(4);
    for (const refused of responses.filter((response) => response.statusCode !== 200)) {
      expect(refused.statusCode).toBe(402);
      expect(refused.json()).toMatchObject({
        code: 'insufficient_credits',
        error: expect.stringContaining('Insufficient'),
      });
    }
    expect(await balanceOf(token)).toMatchObject({ balance: 3, owed: 0 });
    expect(await ledgerSum(id)).toBe(3);
    const keys = await t.db.select().from(licenseKeys).where(eq(licenseKeys.ownerId, id));
    expect(keys).toHaveLength(4);
    expect(keys.every((key) => key.tier === 'REGULAR')).toBe(true);
    const redemptions = await t.db.select().from(creditRedemptions).where(eq(creditRedemptions.userId, id));
    expect(redemptions).toHaveLength(4);
    const emails = await t.db
      .select()
      .from(emailOutbox)
      .where(eq(emailOutbox.to, emailOf(people)));
    expect(emails).toHaveLength(4);
    for (const key of keys) expect(emails.some((email) => email.body.includes(key.apiKey))).toBe(true);
    const dashboard = await call('GET', '/keys/', token);
    expect(dashboard.statusCode).toBe(200);
    const audits = await t.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'credits.redeemed'), eq(auditLog.customerUserId, id)));
    expect(audits).toHaveLength(4);
  });

  it('answers the redeemed key and the balance; a customer without credits gets the insufficient message', async () => {
    const productId = await product({ grant_value: 'PRO', cost_credits: 2 });
    const { token } = await newUser();
    const refused = await call('POST', '/credits/redeem', token, { redeem_product_id: productId });
    expect(refused.statusCode).toBe(402);
    expect(refused.json()).toEqual({
      error: 'Insufficient credits: this license costs 2 credits and you have 0.',
      code: 'insufficient_credits',
    });
    await grant(emailOf(people), 2);
    const bought = await call('POST', '/credits/redeem', token, { redeem_product_id: productId });
    expect(bought.statusCode).toBe(200);
    expect(bought.json()).toMatchObject({ error: null, balance: 0, key: { pro: true, api_key: expect.any(String) } });
  });

  it('refuses a retired, unknown or non-license product', async () => {
    const { token } = await newUser();
    await grant(emailOf(people), 50);
    const retired = await product({ grant_value: 'REGULAR', cost_credits: 1, name: 'Retired' });
    expect(
      (await call('DELETE', `/staff/redeem-products/${retired}`, staffToken, { reason: 'test retire' })).statusCode,
    ).toBe(204);
    const gone = await call('POST', '/credits/redeem', token, { redeem_product_id: retired });
    expect(gone.statusCode).toBe(404);
    expect(gone.json().code).toBe('redeem_product_not_found');
    expect((await call('POST', '/credits/redeem', token, { redeem_product_id: 999_999 })).statusCode).toBe(404);
    for (const odd of [
      { grant_type: 'support_days', grant_value: '30', cost_credits: 1, name: 'Support' },
      { grant_value: 'LITE', cost_credits: 1, name: 'Lite' },
    ]) {
      const id = await product(odd);
      const response = await call('POST', '/credits/redeem', token, { redeem_product_id: id });
      expect(response.statusCode).toBe(400);
      expect(response.json().code).toBe('unsupported_product');
    }
    expect(await balanceOf(token)).toMatchObject({ balance: 50 });
    const listed = await call('GET', '/credits/redeem-products', token);
    expect(listed.json<{ redeem_products: { id: number }[] }>().redeem_products.map((p) => p.id)).not.toContain(
      retired,
    );
    const staffList = await call('GET', '/staff/redeem-products', staffToken);
    expect(staffList.json<{ redeem_products: { id: number; active: boolean }[] }>().redeem_products).toContainEqual(
      expect.objectContaining({ id: retired, active: false }),
    );
  });

  it('POST /keys/create buys the tier with its license product', async () => {
    await product({ grant_value: 'Pro', cost_credits: 3, name: 'PRO via create' });
    const { token, id } = await newUser();
    await grant(emailOf(people), 3);
    const created = await call('POST', '/keys/create', token, { type: 'pro' });
    expect(created.statusCode, created.body).toBe(200);
    expect(created.json()).toMatchObject({ error: null, key: { pro: true } });
    // The tier's oldest active license product (an earlier test's PRO product, 2 credits) paid for it.
    expect(created.json().balance).toBe(1);
    expect(await ledgerSum(id)).toBe(1);
    const bad = await call('POST', '/keys/create', token, { type: 'gold' });
    expect(bad.statusCode).toBe(400);
  });
});

describe('reporting stores', () => {
  it('gives each row a reason', async () => {
    const other = await newUser();
    const licensed = await ownedKey(t, other.id, 'REGULAR');
    await t.db
      .update(licenseKeys)
      .set({ mainUrl: 'https://licensed-shop.com', myshopify: 'licensed-two.myshopify.com' })
      .where(eq(licenseKeys.apiKey, licensed));
    const me = await newUser();
    const mine = await ownedKey(t, me.id, 'LITE');
    await t.db.update(licenseKeys).set({ secondaryUrl: 'https://my-own-site.com' }).where(eq(licenseKeys.apiKey, mine));
    await t.db.insert(userStores).values({ userId: me.id, myshopifyDomain: 'my-listed.myshopify.com' });
    const [first, second] = freshStores();
    const earlier = freshStores();
    expect((await report(me.token, earlier)).json()).toMatchObject({
      ok: true,
      balance: 0,
      pending: 1,
      credit: 'pending',
    });

    const response = await report(me.token, [
      'not a domain',
      `https://www.${first}/products/x`,
      first!.toUpperCase(),
      earlier[2]!,
      'https://licensed-shop.com/',
    ]);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      ok: false,
      balance: 0,
      pending: 1,
      credit: null,
      validations: [
        { domain: 'not a domain', isValid: false, reason: REPORT_ROW_REASONS.invalidDomain },
        { domain: first, isValid: true, reason: 'Valid' },
        { domain: first, isValid: false, reason: REPORT_ROW_REASONS.listedTwice },
        { domain: earlier[2], isValid: false, reason: REPORT_ROW_REASONS.alreadyReported },
        { domain: 'licensed-shop.com', isValid: false, reason: REPORT_ROW_REASONS.holdsLicense },
      ],
    });

    const more = await report(me.token, [
      'licensed-two.myshopify.com',
      'licensed-two.com',
      'www.my-own-site.com',
      'my-listed.myshopify.com',
      second!,
    ]);
    expect(more.json<{ validations: { reason: string }[] }>().validations.map((row) => row.reason)).toEqual([
      REPORT_ROW_REASONS.holdsLicense,
      REPORT_ROW_REASONS.holdsLicense,
      REPORT_ROW_REASONS.ownStore,
      REPORT_ROW_REASONS.ownStore,
      'Valid',
    ]);
    // Nothing stored for a report that did not qualify.
    const reports = await t.db.select().from(storeReports).where(eq(storeReports.userId, me.id));
    expect(reports).toHaveLength(1);
  });

  it('refuses anything but 5 filled rows', async () => {
    const { token } = await newUser();
    const four = await report(token, freshStores().slice(0, 4));
    expect(four.statusCode).toBe(400);
    expect(four.json().error).toBe('Please enter all 5 store domains.');
    const blank = await report(token, [...freshStores().slice(0, 4), '  ']);
    expect(blank.statusCode).toBe(400);
  });

  it('the same report posted 10 times at once earns one (pending) credit', async () => {
    const { token, id } = await newUser();
    const domains = freshStores();
    const responses = await Promise.all(Array.from({ length: 10 }, () => report(token, domains)));
    expect(responses.map((response) => response.statusCode)).toEqual(Array(10).fill(200));
    const bodies = responses.map((response) => response.json<{ ok: boolean; validations: { reason: string }[] }>());
    expect(bodies.filter((body) => body.ok)).toHaveLength(1);
    for (const body of bodies.filter((candidate) => !candidate.ok)) {
      expect(body.validations.map((row) => row.reason)).toEqual(Array(5).fill(REPORT_ROW_REASONS.alreadyReported));
    }
    expect(await balanceOf(token)).toMatchObject({ balance: 0, pending: 1 });
    expect(await ledgerSum(id)).toBe(0);
    const audits = await t.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'store_report.submitted'), eq(auditLog.customerUserId, id)));
    expect(audits).toHaveLength(1);
  });

  it('limits report submissions per day (429 with Retry-After)', async () => {
    const { token } = await newUser();
    for (let i = 0; i < 10; i++) expect((await report(token, ['x', 'y', 'z', 'v', 'w'])).statusCode).toBe(200);
    const limited = await report(token, freshStores());
    expect(limited.statusCode).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
  });
});

describe('staff review', () => {
  async function reportFor(token: string): Promise<number> {
    const response = await report(token, freshStores());
    expect(response.json().ok).toBe(true);
    const [row] = await t.db
      .select({ id: storeReports.id })
      .from(storeReports)
      .orderBy(sql`${storeReports.id} desc`)
      .limit(1);
    return row!.id;
  }

  it('a rejected report whose credit was spent leaves the account owing; redeeming is refused until repaid', async () => {
    const productId = await product({ grant_value: 'REGULAR', cost_credits: 1, name: 'Cheap REGULAR' });
    const { token, id } = await newUser();
    const reportId = await reportFor(token);
    // A report sent before ADR 037 had its credit added on submission (pending credits are never spent now).
    await t.db.transaction((tx) =>
      t.app.services.credits.grant(tx, {
        userId: id,
        kind: 'grant',
        amount: 1,
        sourceRef: `report:${reportId}`,
        note: `Store report #${reportId}`,
      }),
    );
    expect((await call('POST', '/credits/redeem', token, { redeem_product_id: productId })).statusCode).toBe(200);

    const rejected = await call('POST', `/staff/reports/${reportId}/reject`, staffToken, { note: 'Not our theme' });
    expect(rejected.statusCode, rejected.body).toBe(200);
    expect(rejected.json()).toMatchObject({
      balance: 0,
      owed: 1,
      report: { id: reportId, status: 'rejected', review_note: 'Not our theme', reporter: { id, rejected_reports: 1 } },
    });
    const again = await call('POST', `/staff/reports/${reportId}/reject`, staffToken, { note: 'Twice' });
    expect(again.statusCode).toBe(409);
    expect(again.json().code).toBe('report_already_reviewed');

    const refused = await call('POST', '/credits/redeem', token, { redeem_product_id: productId });
    expect(refused.statusCode).toBe(402);
    expect(refused.json().error).toBe(
      'Insufficient credits: your account owes 1 credit from a rejected store report. Earn or buy credits to repay it first.',
    );
    expect(await grant(emailOf(people), 3)).toMatchObject({ balance: 2, owed: 0 });
    expect(await ledgerSum(id)).toBe(2);
    const audits = await t.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'store_report.rejected'), eq(auditLog.customerUserId, id)));
    expect(audits).toEqual([expect.objectContaining({ actorType: 'staff', reason: 'Not our theme' })]);
  });

  it('approving adds the credit; a decided report cannot be decided again; both need a note', async () => {
    const { token } = await newUser();
    const reportId = await reportFor(token);
    expect((await call('POST', `/staff/reports/${reportId}/reject`, staffToken, { note: ' ' })).statusCode).toBe(400);
    expect((await call('POST', `/staff/reports/${reportId}/approve`, staffToken, {})).statusCode).toBe(400);
    const approved = await call('POST', `/staff/reports/${reportId}/approve`, staffToken, { note: 'Checked: copies' });
    expect(approved.statusCode).toBe(200);
    expect(approved.json()).toMatchObject({
      report: { status: 'approved', reviewed_by: { email: 'credits-staff@example.com' } },
    });
    expect((await call('POST', `/staff/reports/${reportId}/reject`, staffToken, { note: 'late' })).statusCode).toBe(
      409,
    );
    expect((await call('POST', '/staff/reports/999999/approve', staffToken, { note: 'Checked' })).statusCode).toBe(404);
    expect(await balanceOf(token)).toMatchObject({ balance: 1, pending: 0 });
  });

  it('three rejections restrict reporting', async () => {
    const { token } = await newUser();
    for (let i = 0; i < 3; i++) {
      const reportId = await reportFor(token);
      expect((await call('POST', `/staff/reports/${reportId}/reject`, staffToken, { note: 'fake' })).statusCode).toBe(
        200,
      );
    }
    expect(await balanceOf(token)).toEqual({ balance: 0, owed: 0, pending: 0, can_report: false });
    const refused = await report(token, freshStores());
    expect(refused.statusCode).toBe(403);
    expect(refused.json().code).toBe('reporting_restricted');
  });

  it('lists pending reports oldest first, with the reporter and domains', async () => {
    const { token } = await newUser();
    const first = await reportFor(token);
    const second = await reportFor(token);
    const page = await call('GET', '/staff/reports?status=pending&limit=100', staffToken);
    expect(page.statusCode).toBe(200);
    const ids = page.json<{ reports: { id: number }[] }>().reports.map((row) => row.id);
    expect(ids.indexOf(first)).toBeLessThan(ids.indexOf(second));
    const one = await call('GET', `/staff/reports?status=pending&limit=1&cursor=${first}`, staffToken);
    expect(one.json()).toMatchObject({ reports: [{ status: 'pending' }], next_cursor: expect.any(String) });
    const all = await call('GET', '/staff/reports', staffToken);
    const statuses = all.json<{ reports: { status: string }[] }>().reports.map((row) => row.status);
    expect(statuses.indexOf('pending')).toBe(0);
    expect(all.json<{ reports: { domains: unknown[] }[] }>().reports[0]!.domains).toHaveLength(5);
  });
});

describe('staff credit adjustments', () => {
  it('grants and removes with a reason, never below zero, audited', async () => {
    const { id } = await newUser();
    const email = emailOf(people);
    expect(await grant(email, 3, 'Goodwill')).toMatchObject({ balance: 3 });
    const tooMuch = await call('POST', '/staff/credits', staffToken, { email, amount: -4, reason: 'Oops' });
    expect(tooMuch.statusCode).toBe(409);
    expect(tooMuch.json()).toEqual({
      error: `This would take ${email}'s balance below zero (balance 3).`,
      code: 'insufficient_credits',
    });
    const removed = await call('POST', '/staff/credits', staffToken, {
      email: email.toUpperCase(),
      amount: -3,
      reason: 'Reversal',
    });
    expect(removed.json()).toMatchObject({ user_id: id, balance: 0, owed: 0, entry: { kind: 'debit', amount: -3 } });
    const unknown = await call('POST', '/staff/credits', staffToken, {
      email: 'nobody@example.com',
      amount: 1,
      reason: 'xyz',
    });
    expect(unknown.statusCode).toBe(404);
    const audits = await t.db.select().from(auditLog).where(eq(auditLog.customerUserId, id));
    expect(audits.map((row) => [row.action, row.reason])).toEqual([
      ['credits.granted', 'Goodwill'],
      ['credits.removed', 'Reversal'],
    ]);
    const [account] = await t.db.select().from(creditAccounts).where(eq(creditAccounts.userId, id));
    expect(account).toMatchObject({ balance: 0, owed: 0 });
  });
});
