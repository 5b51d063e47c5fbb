import { and, asc, eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import type { CreditHistoryEntry, StaffStoreReport } from '@keyport/shared/contracts/credits';
import {
  auditLog,
  creditLedger,
  creditRedemptions,
  licenseCheckins,
  licenseKeys,
  storeReports,
} from '../src/db/schema';
import { AUTO_APPROVAL_NOTE } from '../src/modules/credits/store-reports.service';
import { ledgerSum } from './helpers/credits';
import { ownedKey } from './helpers/keys';
import { auth, createTestApp, signUp, type TestApp } from './helpers/test-app';

/**
 * Issue 19 (ADR 037): a store report's credit is pending until staff approve the report, and pending credits are never
 * spent. The invariant: no license is ever minted from the credit of a report staff have not approved.
 */
let t: TestApp;
let staff = { token: '', id: 0 };
let people = 0;
let stores = 0;
let regularId = 0;

beforeAll(async () => {
  t = await createTestApp();
  staff = await signUp(t, 'pending-staff@example.com', { role: 'staff', ip: '10.64.0.1' });
  regularId = await product('REGULAR', 5);
});

const newUser = () =>
  signUp(t, `pending-${++people}@example.com`, {
    ip: `10.64.${Math.floor(people / 250) + 1}.${(people % 250) + 1}`,
  });
const emailOf = (n: number) => `pending-${n}@example.com`;
/** Five made-up store domains nobody reported. */
const madeUpStores = () => Array.from({ length: 5 }, () => `made-up-${++stores}-store.com`);

const call = (method: 'GET' | 'POST', url: string, token: string, payload?: object) =>
  t.app.inject({ method, url, headers: auth(token), ...(payload === undefined ? {} : { payload }) });

async function product(grantValue: string, cost: number): Promise<number> {
  const response = await call('POST', '/staff/redeem-products', staff.token, {
    name: `${grantValue} for ${cost}`,
    description: 'A license',
    grant_type: 'license_level',
    grant_value: grantValue,
    cost_credits: cost,
    reason: 'test product',
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json<{ redeem_product: { id: number } }>().redeem_product.id;
}

async function report(token: string, domains = madeUpStores()) {
  const response = await call('POST', '/credits/report-store', token, { storeDomains: domains });
  expect(response.statusCode, response.body).toBe(200);
  return response.json<{ ok: boolean; balance: number; pending: number; credit: string | null }>();
}

/** Reports five made-up stores and answers the stored report's id. */
async function reportId(token: string, userId: number, domains?: string[]): Promise<number> {
  expect(await report(token, domains)).toMatchObject({ ok: true });
  const [row] = await t.db
    .select({ id: storeReports.id })
    .from(storeReports)
    .where(eq(storeReports.userId, userId))
    .orderBy(sql`${storeReports.id} desc`)
    .limit(1);
  return row!.id;
}

/** The credits on the customer's staff page (GET /staff/customers/:id). */
async function staffCreditsOf(userId: number) {
  const response = await call('GET', `/staff/customers/${userId}`, staff.token);
  expect(response.statusCode).toBe(200);
  return response.json<{ credits: { balance: number; owed: number; pending: number } }>().credits;
}

async function balanceOf(token: string) {
  const response = await call('GET', '/credits/balance', token);
  expect(response.statusCode).toBe(200);
  return response.json<{ balance: number; owed: number; pending: number; can_report: boolean }>();
}

async function historyOf(token: string): Promise<CreditHistoryEntry[]> {
  const response = await call('GET', '/credits/history', token);
  expect(response.statusCode, response.body).toBe(200);
  return response.json<{ entries: CreditHistoryEntry[] }>().entries;
}

const redeem = (token: string, productId = regularId) =>
  call('POST', '/credits/redeem', token, { redeem_product_id: productId });
const approve = (id: number, note = 'Checked: unlicensed copies') =>
  call('POST', `/staff/reports/${id}/approve`, staff.token, { note });
const reject = (id: number, note = 'Made-up stores') =>
  call('POST', `/staff/reports/${id}/reject`, staff.token, { note });

const keysOf = (userId: number) => t.db.select().from(licenseKeys).where(eq(licenseKeys.ownerId, userId));

/**
 * The invariant, from the database alone: every credit a report added to the ledger belongs to a report staff (or
 * the portal's evidence) approved; the ledger replayed in order never spends credits it did not hold; and it adds up
 * to the account (balance minus owed). So every license minted was paid from approved credits only.
 */
async function expectOnlyApprovedCreditsSpent(userId: number) {
  const rows = await t.db
    .select()
    .from(creditLedger)
    .where(eq(creditLedger.userId, userId))
    .orderBy(asc(creditLedger.id));
  const reports = await t.db.select().from(storeReports).where(eq(storeReports.userId, userId));
  let net = 0;
  for (const row of rows) {
    const ofReport = /^report:(\d+)$/.exec(row.sourceRef);
    if (ofReport) expect(reports.find((r) => r.id === Number(ofReport[1]))?.status, row.sourceRef).toBe('approved');
    if (row.kind === 'debit') expect(net + row.amount, `debit ${row.id}`).toBeGreaterThanOrEqual(0);
    net += row.amount;
    expect(row.balanceAfter - row.owedAfter, `ledger row ${row.id}`).toBe(net);
  }
  expect(await ledgerSum(t, userId)).toBe(net);
  const redemptions = await t.db.select().from(creditRedemptions).where(eq(creditRedemptions.userId, userId));
  expect(await keysOf(userId)).toHaveLength(redemptions.length);
  for (const redemption of redemptions) expect(rows.some((row) => row.id === redemption.ledgerId)).toBe(true);
}

describe('a report earns a pending credit', () => {
  it('25 made-up domains in 5 reports: 5 credits pending, none spendable, no license; rejecting drops them', async () => {
    const { token, id } = await newUser();
    for (let n = 1; n <= 5; n++) {
      expect(await report(token)).toEqual({
        ok: true,
        balance: 0,
        pending: n,
        credit: 'pending',
        validations: expect.any(Array) as unknown[],
      });
    }
    expect(await balanceOf(token)).toEqual({ balance: 0, owed: 0, pending: 5, can_report: true });
    // Staff see them on the customer's page, apart from the balance.
    expect(await staffCreditsOf(id)).toMatchObject({ balance: 0, owed: 0, pending: 5 });

    const refused = await redeem(token);
    expect(refused.statusCode).toBe(402);
    expect(refused.json()).toEqual({
      error:
        'Insufficient credits: this license costs 5 credits and you have 0. 5 credits are pending review: they can be spent once our team approves your store reports.',
      code: 'insufficient_credits',
    });
    expect((await call('POST', '/keys/create', token, { type: 'regular' })).statusCode).toBe(402);
    expect(await keysOf(id)).toEqual([]);

    const ids = (await t.db.select().from(storeReports).where(eq(storeReports.userId, id))).map((row) => row.id);
    for (const reportId of ids) expect((await reject(reportId)).statusCode).toBe(200);
    expect(await balanceOf(token)).toEqual({ balance: 0, owed: 0, pending: 0, can_report: false });
    expect(await staffCreditsOf(id)).toMatchObject({ balance: 0, owed: 0, pending: 0 });
    // Never spendable, so nothing to take back: the ledger never moved.
    expect(await t.db.select().from(creditLedger).where(eq(creditLedger.userId, id))).toEqual([]);
    const audits = await t.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'store_report.rejected'), eq(auditLog.customerUserId, id)));
    expect(audits).toHaveLength(5);
    expect(audits.every((row) => (row.data as { credit: string }).credit === 'dropped')).toBe(true);
    await expectOnlyApprovedCreditsSpent(id);
  });

  it('one pending credit is worded in the singular', async () => {
    const { token, id } = await newUser();
    await reportId(token, id);
    const cheap = await product('PRO', 1);
    const refused = await redeem(token, cheap);
    expect(refused.json().error).toBe(
      'Insufficient credits: this license costs 1 credit and you have 0. 1 credit is pending review: it can be spent once our team approves your store report.',
    );
  });

  it('approving adds the credit at once: one ledger row with the staff member, then it can be spent', async () => {
    const { token, id } = await newUser();
    const cheap = await product('REGULAR', 1);
    const reportOne = await reportId(token, id);
    expect((await redeem(token, cheap)).statusCode).toBe(402);

    const approved = await approve(reportOne, 'All five run our theme');
    expect(approved.statusCode, approved.body).toBe(200);
    expect(approved.json<{ report: StaffStoreReport }>().report).toMatchObject({
      status: 'approved',
      credit: { amount: 1, state: 'added' },
      reviewed_automatically: false,
      reviewed_by: { id: staff.id },
    });
    expect(await balanceOf(token)).toMatchObject({ balance: 1, pending: 0 });
    const ledger = await t.db.select().from(creditLedger).where(eq(creditLedger.userId, id));
    expect(ledger).toEqual([
      expect.objectContaining({ kind: 'grant', amount: 1, sourceRef: `report:${reportOne}`, actorId: staff.id }),
    ]);
    expect((await redeem(token, cheap)).statusCode).toBe(200);
    await expectOnlyApprovedCreditsSpent(id);
  });

  it('20 approvals of one report at once: one succeeds, the rest are 409, one ledger row', async () => {
    const { token, id } = await newUser();
    const reportOne = await reportId(token, id);
    const responses = await Promise.all(Array.from({ length: 20 }, (_, n) => approve(reportOne, `approval ${n}`)));
    const codes = responses.map((response) => response.statusCode).sort();
    expect(codes).toEqual([200, ...Array<number>(19).fill(409)]);
    expect(
      await t.db
        .select()
        .from(creditLedger)
        .where(eq(creditLedger.sourceRef, `report:${reportOne}`)),
    ).toHaveLength(1);
    expect(await balanceOf(token)).toMatchObject({ balance: 1, pending: 0 });
    const audits = await t.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'store_report.approved'), eq(auditLog.objectId, String(reportOne))));
    expect(audits).toHaveLength(1);
  });

  it('approve and reject of one report at once: exactly one decides it, and the credit follows that decision', async () => {
    const { token, id } = await newUser();
    const reportOne = await reportId(token, id);
    const [approved, rejected] = await Promise.all([approve(reportOne), reject(reportOne)]);
    expect([approved.statusCode, rejected.statusCode].sort()).toEqual([200, 409]);
    expect(await balanceOf(token)).toMatchObject({ balance: approved.statusCode === 200 ? 1 : 0, pending: 0 });
    await expectOnlyApprovedCreditsSpent(id);
  });
});

describe('races: no license from credits of a report staff have not approved', () => {
  it('50 redeems racing the rejection of 5 pending reports (4 credits available, 5 pending, cost 5) mint nothing', async () => {
    const { token, id } = await newUser();
    const ids = [];
    for (let n = 0; n < 5; n++) ids.push(await reportId(token, id));
    const granted = await call('POST', '/staff/credits', staff.token, {
      email: emailOf(people),
      amount: 4,
      reason: 'Goodwill credits',
    });
    expect(granted.statusCode).toBe(200);
    const responses = await Promise.all([
      ...Array.from({ length: 50 }, () => redeem(token)),
      ...ids.map((reportOne) => reject(reportOne)),
    ]);
    const redeems = responses.slice(0, 50);
    expect(redeems.filter((response) => response.statusCode === 200)).toHaveLength(0);
    for (const refused of redeems) expect(refused.json()).toMatchObject({ code: 'insufficient_credits' });
    expect(responses.slice(50).map((response) => response.statusCode)).toEqual(Array(5).fill(200));
    expect(await keysOf(id)).toEqual([]);
    expect(await balanceOf(token)).toMatchObject({ balance: 4, owed: 0, pending: 0 });
    await expectOnlyApprovedCreditsSpent(id);
  });

  it('50 redeems racing the approval of 5 pending reports: a license only once all five were approved', async () => {
    const { token, id } = await newUser();
    const ids = [];
    for (let n = 0; n < 5; n++) ids.push(await reportId(token, id));
    const responses = await Promise.all([
      ...ids.map((reportOne) => approve(reportOne)),
      ...Array.from({ length: 50 }, () => redeem(token)),
    ]);
    expect(responses.slice(0, 5).map((response) => response.statusCode)).toEqual(Array(5).fill(200));
    const minted = responses.slice(5).filter((response) => response.statusCode === 200).length;
    expect(minted).toBeLessThanOrEqual(1);
    expect(await balanceOf(token)).toMatchObject({ balance: 5 - 5 * minted, pending: 0 });
    await expectOnlyApprovedCreditsSpent(id);
  });

  it('50 redeems racing the approval of 4 reports and the rejection of the fifth mint nothing', async () => {
    const { token, id } = await newUser();
    const ids = [];
    for (let n = 0; n < 5; n++) ids.push(await reportId(token, id));
    const responses = await Promise.all([
      ...Array.from({ length: 50 }, () => redeem(token)),
      ...ids.slice(0, 4).map((reportOne) => approve(reportOne)),
      reject(ids[4]!),
    ]);
    expect(responses.slice(0, 50).filter((response) => response.statusCode === 200)).toHaveLength(0);
    expect(responses.slice(50).map((response) => response.statusCode)).toEqual(Array(5).fill(200));
    expect(await balanceOf(token)).toMatchObject({ balance: 4, pending: 0 });
    await expectOnlyApprovedCreditsSpent(id);
  });
});

describe('automatic approval on the license check evidence', () => {
  const DAY = 24 * 60 * 60 * 1000;

  /** Uncovered check-ins of `apiKey`'s token on each domain, first seen `ageMs` ago. */
  async function sighted(apiKey: string, domains: string[], ageMs: number) {
    const [key] = await t.db.select().from(licenseKeys).where(eq(licenseKeys.apiKey, apiKey));
    await t.db.insert(licenseCheckins).values(
      domains.map((domain) => ({
        keyId: key!.id,
        domain,
        version: '15.2.0',
        edition: 'REGULAR' as const,
        covered: false,
        count: 7,
        firstSeenAt: new Date(Date.now() - ageMs),
        lastSeenAt: new Date(Date.now() - 60_000),
      })),
    );
    return key!.id;
  }

  it("approves a report whose five stores all ran another customer's token for over a day, audited as the portal", async () => {
    const leaker = await newUser();
    const leakedKey = await ownedKey(t, leaker.id, 'REGULAR');
    const { token, id } = await newUser();
    const domains = madeUpStores();
    const keyId = await sighted(leakedKey, domains, 2 * DAY);

    expect(await report(token, domains)).toMatchObject({ ok: true, balance: 1, pending: 0, credit: 'available' });
    expect(await balanceOf(token)).toMatchObject({ balance: 1, pending: 0 });
    const [row] = await t.db.select().from(storeReports).where(eq(storeReports.userId, id));
    expect(row).toMatchObject({ status: 'approved', reviewedBy: null, reviewNote: AUTO_APPROVAL_NOTE });
    const [audit] = await t.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'store_report.approved'), eq(auditLog.objectId, String(row!.id))));
    expect(audit).toMatchObject({ actorType: 'system', actorId: 'store-report-evidence', reason: AUTO_APPROVAL_NOTE });
    const evidence = (audit!.data as { evidence: Record<string, { key_ids: number[]; checkins: number }> }).evidence;
    expect(Object.keys(evidence)).toEqual(domains);
    expect(evidence[domains[0]!]).toMatchObject({ key_ids: [keyId], checkins: 7 });

    const queue = await call('GET', '/staff/reports?status=approved&limit=100', staff.token);
    const listed = queue.json<{ reports: StaffStoreReport[] }>().reports.find((r) => r.id === row!.id)!;
    expect(listed).toMatchObject({
      reviewed_automatically: true,
      reviewed_by: null,
      credit: { state: 'added' },
    });
    await expectOnlyApprovedCreditsSpent(id);
  });

  it("leaves it pending when the evidence is the reporter's own token, too fresh, an ownerless key's, or misses a store", async () => {
    const leaker = await newUser();
    const theirs = await ownedKey(t, leaker.id, 'REGULAR');
    const { token, id } = await newUser();
    const mine = await ownedKey(t, id, 'REGULAR');
    const ownerless = await ownedKey(t, leaker.id, 'REGULAR');
    await t.db.update(licenseKeys).set({ ownerId: null }).where(eq(licenseKeys.apiKey, ownerless));

    const own = madeUpStores();
    await sighted(mine, own, 2 * DAY);
    const fresh = madeUpStores();
    await sighted(theirs, fresh, DAY / 24);
    const released = madeUpStores();
    await sighted(ownerless, released, 2 * DAY);
    const partly = madeUpStores();
    await sighted(theirs, partly.slice(0, 4), 2 * DAY);

    for (const domains of [own, fresh, released, partly]) {
      expect(await report(token, domains), domains[0]).toMatchObject({ ok: true, balance: 0, credit: 'pending' });
    }
    expect(await balanceOf(token)).toMatchObject({ balance: 0, pending: 4 });
    const rows = await t.db.select().from(storeReports).where(eq(storeReports.userId, id));
    expect(rows.map((row) => row.status)).toEqual(Array(4).fill('pending'));
    expect(await redeem(token, await product('PRO', 1)).then((response) => response.statusCode)).toBe(402);
  });
});

describe('the customer credit history', () => {
  it('shows the ledger with reasons and staff notes, pending and rejected report credits; owner-scoped', async () => {
    const { token, id } = await newUser();
    const email = emailOf(people);
    const other = await newUser();
    const cheap = await product('REGULAR', 2);

    const adjust = (amount: number, reason: string) =>
      call('POST', '/staff/credits', staff.token, { email, amount, reason });
    expect((await adjust(3, 'Sorry for the outage')).statusCode).toBe(200);
    expect((await adjust(-1, 'Granted twice by mistake')).statusCode).toBe(200);
    const approvedId = await reportId(token, id);
    expect((await approve(approvedId, 'Five real copies')).statusCode).toBe(200);
    const rejectedId = await reportId(token, id);
    expect((await reject(rejectedId, 'These stores hold licenses')).statusCode).toBe(200);
    expect((await redeem(token, cheap)).statusCode).toBe(200);
    const pendingId = await reportId(token, id);

    const lines = await historyOf(token);
    expect(
      lines.map(({ kind, state, amount, balance_after, reason, note }) => ({
        kind,
        state,
        amount,
        balance_after,
        reason,
        note,
      })),
    ).toEqual([
      {
        kind: 'report',
        state: 'pending',
        amount: 1,
        balance_after: null,
        reason: `Store report #${pendingId}: pending review`,
        note: null,
      },
      { kind: 'debit', state: 'available', amount: -2, balance_after: 1, reason: 'REGULAR for 2', note: null },
      {
        kind: 'report',
        state: 'dropped',
        amount: 1,
        balance_after: null,
        reason: `Store report #${rejectedId} rejected: its credit was not added`,
        note: 'These stores hold licenses',
      },
      {
        kind: 'grant',
        state: 'available',
        amount: 1,
        balance_after: 3,
        reason: `Store report #${approvedId} approved`,
        note: 'Five real copies',
      },
      {
        kind: 'debit',
        state: 'available',
        amount: -1,
        balance_after: 2,
        reason: 'Removed by our team',
        note: 'Granted twice by mistake',
      },
      {
        kind: 'grant',
        state: 'available',
        amount: 3,
        balance_after: 3,
        reason: 'Added by our team',
        note: 'Sorry for the outage',
      },
    ]);
    expect(new Set(lines.map((line) => line.id)).size).toBe(lines.length);
    expect(await historyOf(other.token)).toEqual([]);
    expect((await t.app.inject({ method: 'GET', url: '/credits/history' })).statusCode).toBe(401);
  });
});

describe('reports credited on submission (before ADR 037)', () => {
  /** A report stored pending whose credit the old rules added at once (ledger `report:<id>` written on submission). */
  async function legacyReport(token: string, userId: number) {
    const id = await reportId(token, userId);
    await t.db.transaction((tx) =>
      t.app.services.credits.grant(tx, {
        userId,
        kind: 'grant',
        amount: 1,
        sourceRef: `report:${id}`,
        note: `Store report #${id}`,
      }),
    );
    return id;
  }

  it('count in the balance, not as pending; approving adds nothing more; rejecting claws the credit back', async () => {
    const { token, id } = await newUser();
    const kept = await legacyReport(token, id);
    const taken = await legacyReport(token, id);
    expect(await balanceOf(token)).toMatchObject({ balance: 2, pending: 0 });

    const approved = await approve(kept);
    expect(approved.json<{ report: StaffStoreReport }>().report.credit.state).toBe('added');
    expect(await balanceOf(token)).toMatchObject({ balance: 2, pending: 0 });
    expect(
      await t.db
        .select()
        .from(creditLedger)
        .where(eq(creditLedger.sourceRef, `report:${kept}`)),
    ).toHaveLength(1);

    expect((await redeem(token, await product('PRO', 2))).statusCode).toBe(200);
    const rejected = await reject(taken, 'Licensed stores');
    expect(rejected.json()).toMatchObject({ balance: 0, owed: 1, report: { credit: { state: 'taken_back' } } });
    const lines = await historyOf(token);
    expect(lines[0]).toMatchObject({
      kind: 'clawback',
      amount: -1,
      reason: `Store report #${taken} rejected`,
      note: 'Licensed stores',
    });
    expect(lines.filter((line) => line.kind === 'report')).toEqual([]);
  });
});
