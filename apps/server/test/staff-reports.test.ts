import { and, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import type { StaffStoreReport } from '@keyport/shared/contracts/credits';
import { auditLog } from '../src/db/schema';
import { claimNewKey } from './helpers/releases';
import { auth, createTestApp, signUp, type TestApp } from './helpers/test-app';

/** Issue 12: the report queue says what the portal knows about each domain and the reporter's history. */
let t: TestApp;
let staffToken = '';
let people = 0;

beforeAll(async () => {
  t = await createTestApp();
  staffToken = (await signUp(t, 'reports-staff@example.com', { role: 'staff', ip: '10.63.0.1' })).token;
});

const newUser = () => signUp(t, `reports-${++people}@example.com`, { ip: `10.63.1.${people}` });
const call = (method: 'GET' | 'POST' | 'PUT', url: string, token: string, payload?: object) =>
  t.app.inject({ method, url, headers: auth(token), ...(payload === undefined ? {} : { payload }) });

async function report(token: string, storeDomains: string[]) {
  const response = await call('POST', '/credits/report-store', token, { storeDomains });
  expect(response.json(), response.body).toMatchObject({ ok: true });
}

async function connectKey(token: string, store: string) {
  const { apiKey } = await claimNewKey(t, token, 'PRO');
  const response = await call('PUT', '/keys/', token, { key: apiKey, main_url: store, myshopify: store.split('.')[0] });
  expect(response.statusCode, response.body).toBe(200);
}

async function queue(status?: string): Promise<StaffStoreReport[]> {
  const response = await call('GET', `/staff/reports${status ? `?status=${status}` : ''}`, staffToken);
  expect(response.statusCode, response.body).toBe(200);
  return response.json<{ reports: StaffStoreReport[] }>().reports;
}

const auditOf = (action: string, reportId: number) =>
  t.db
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.action, action), eq(auditLog.objectId, String(reportId))));

describe('GET /staff/reports: what the portal knows', () => {
  it("shows each domain's check, keys of ours on it, other users' reports of it, and the reporter's history", async () => {
    const reporter = await newUser();
    const other = await newUser();
    const licensee = await newUser();
    const stores = ['copied-one.com', 'copied-two.com', 'copied-three.com', 'copied-four.com', 'copied-five.com'];
    await report(reporter.token, stores);
    await report(other.token, ['copied-one.com', 'x-1.com', 'x-2.com', 'x-3.com', 'x-4.com']);
    // Since the report: a customer connected a key to the second store, the reporter one to the third.
    await connectKey(licensee.token, 'copied-two.com');
    await connectKey(reporter.token, 'copied-three.com');

    const mine = (await queue('pending')).find((row) => row.reporter.id === reporter.id)!;
    expect(mine.reporter).toEqual({
      id: reporter.id,
      email: `reports-1@example.com`,
      rejected_reports: 0,
      reports: { pending: 1, approved: 0, rejected: 0 },
    });
    expect(mine.domains.map((row) => [row.domain, row.validation, row.known])).toEqual([
      [
        'copied-one.com',
        { isValid: true, reason: 'Valid' },
        { licensed_keys: 0, reporter_holds_key: false, other_reports: 1, sightings: null },
      ],
      [
        'copied-two.com',
        { isValid: true, reason: 'Valid' },
        { licensed_keys: 1, reporter_holds_key: false, other_reports: 0, sightings: null },
      ],
      [
        'copied-three.com',
        { isValid: true, reason: 'Valid' },
        { licensed_keys: 1, reporter_holds_key: true, other_reports: 0, sightings: null },
      ],
      [
        'copied-four.com',
        { isValid: true, reason: 'Valid' },
        { licensed_keys: 0, reporter_holds_key: false, other_reports: 0, sightings: null },
      ],
      [
        'copied-five.com',
        { isValid: true, reason: 'Valid' },
        { licensed_keys: 0, reporter_holds_key: false, other_reports: 0, sightings: null },
      ],
    ]);
  });

  it('approve and reject take the note as the audit reason (one row each) and the history follows', async () => {
    const reporter = await newUser();
    await report(reporter.token, ['a-1.com', 'a-2.com', 'a-3.com', 'a-4.com', 'a-5.com']);
    await report(reporter.token, ['b-1.com', 'b-2.com', 'b-3.com', 'b-4.com', 'b-5.com']);
    const [first, second] = (await queue('pending')).filter((row) => row.reporter.id === reporter.id);

    const approved = await call('POST', `/staff/reports/${first!.id}/approve`, staffToken, { note: 'All five copies' });
    expect(approved.statusCode, approved.body).toBe(200);
    const rejected = await call('POST', `/staff/reports/${second!.id}/reject`, staffToken, { note: 'Licensed stores' });
    expect(rejected.statusCode, rejected.body).toBe(200);
    expect(rejected.json()).toMatchObject({
      balance: 1,
      report: { reporter: { reports: { pending: 0, approved: 1, rejected: 1 }, rejected_reports: 1 } },
    });

    expect(await auditOf('store_report.approved', first!.id)).toEqual([
      expect.objectContaining({ actorType: 'staff', reason: 'All five copies', customerUserId: reporter.id }),
    ]);
    expect(await auditOf('store_report.rejected', second!.id)).toEqual([
      expect.objectContaining({ actorType: 'staff', reason: 'Licensed stores', customerUserId: reporter.id }),
    ]);
    const noNote = await call('POST', `/staff/reports/${first!.id}/approve`, staffToken, { note: 'ok' });
    expect(noNote.statusCode).toBe(400);
    expect(noNote.json()).toMatchObject({ error: expect.stringContaining('Give a reason') });
  });
});
