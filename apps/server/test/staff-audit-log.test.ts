import { beforeAll, describe, expect, it } from 'vitest';
import type { AuditEntry } from '@keyport/shared/contracts/audit';
import type { HomepageUpdate } from '@keyport/shared/contracts/homepage';
import { auditLog } from '../src/db/schema';
import { seedDemoData } from '../src/db/seed';
import { auth, createTestApp, type TestApp } from './helpers/test-app';

let t: TestApp;
const tokens: Record<'customer' | 'team' | 'staff', string> = { customer: '', team: '', staff: '' };
const ids: Record<'customer' | 'staff', number> = { customer: 0, staff: 0 };

const signIn = async (email: string, password: string) =>
  (await t.app.inject({ method: 'POST', url: '/auth/login', payload: { email, password } })).json<{
    token: string;
    user: { id: number };
  }>();

beforeAll(async () => {
  t = await createTestApp();
  await seedDemoData(t.app.services, t.app.log);
  const customer = await signIn('demo@example.com', 'demo-password');
  const staff = await signIn('staff@example.com', 'staff-password');
  tokens.customer = customer.token;
  tokens.staff = staff.token;
  tokens.team = (await signIn('team@example.com', 'team-password')).token;
  ids.customer = customer.user.id;
  ids.staff = staff.user.id;
});

const update = (title: string): HomepageUpdate => ({ title, body: `${title}: details.`, date: '2026-11-01' });
const saveFeed = (token: string, payload: object) =>
  t.app.inject({ method: 'PUT', url: '/staff/homepage-settings', headers: auth(token), payload });
const auditLogPage = async (query: string) => {
  const response = await t.app.inject({ url: `/staff/audit-log?${query}`, headers: auth(tokens.staff) });
  expect(response.statusCode, response.body).toBe(200);
  return response.json<{ entries: AuditEntry[]; next_cursor: string | null }>();
};
const countRows = async () => (await t.db.select().from(auditLog)).length;

describe('PUT /staff/homepage-settings asks for a reason and audits it (issue 12)', () => {
  it('refuses a save without a valid reason (400), writing neither the feed nor the log', async () => {
    const before = await countRows();
    const feed = (await t.app.inject({ url: '/staff/homepage-settings?preview=true', headers: auth(tokens.staff) }))
      .body;
    for (const reason of [undefined, '', '  ab ', 'x'.repeat(501)]) {
      const response = await saveFeed(tokens.staff, { updates: [update('No reason')], publish: true, reason });
      expect(response.statusCode).toBe(400);
      expect(response.json().code).toBe('invalid_request');
    }
    expect(await countRows()).toBe(before);
    expect(
      (await t.app.inject({ url: '/staff/homepage-settings?preview=true', headers: auth(tokens.staff) })).body,
    ).toBe(feed);
  });

  it('leaves exactly one audit row per save and per publish, with the staff actor and the trimmed reason', async () => {
    const before = await countRows();
    expect(
      (await saveFeed(tokens.staff, { updates: [update('Draft')], publish: false, reason: '  Typo fix ' })).statusCode,
    ).toBe(200);
    expect(await countRows()).toBe(before + 1);
    expect(
      (await saveFeed(tokens.staff, { updates: [update('Theme 6')], publish: true, reason: 'Release day' })).statusCode,
    ).toBe(200);
    expect(await countRows()).toBe(before + 2);

    const { entries } = await auditLogPage('object_type=homepage_settings&limit=2');
    expect(
      entries.map(({ action, actor_type, actor_id, actor_email, reason, object_id, data }) => ({
        action,
        actor_type,
        actor_id,
        actor_email,
        reason,
        object_id,
        data,
      })),
    ).toEqual([
      {
        action: 'homepage.published',
        actor_type: 'staff',
        actor_id: String(ids.staff),
        actor_email: 'staff@example.com',
        reason: 'Release day',
        object_id: '1',
        data: { titles: ['Theme 6'] },
      },
      {
        action: 'homepage.draft_saved',
        actor_type: 'staff',
        actor_id: String(ids.staff),
        actor_email: 'staff@example.com',
        reason: 'Typo fix',
        object_id: '1',
        data: { titles: ['Draft'] },
      },
    ]);
  });

  it('is refused to customers and team members (403) and to anonymous callers (401), with no audit row', async () => {
    const before = await countRows();
    const payload = { updates: [], publish: true, reason: 'Not mine' };
    expect((await saveFeed(tokens.customer, payload)).statusCode).toBe(403);
    expect((await saveFeed(tokens.team, payload)).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'PUT', url: '/staff/homepage-settings', payload })).statusCode).toBe(401);
    expect(await countRows()).toBe(before);
  });
});

describe('GET /staff/audit-log (filters, cursor paging, read-only)', () => {
  beforeAll(async () => {
    // 7 entries about the demo customer's key 9001, by a staff member and by the system.
    await t.db.transaction(async (tx) => {
      for (let i = 0; i < 7; i++) {
        await t.app.services.audit.record(tx, {
          actor: i % 2 === 0 ? { type: 'staff', id: ids.staff } : { type: 'system' },
          action: i % 2 === 0 ? 'key.released' : 'key.minted',
          object: { type: 'license_key', id: 9001 },
          customerUserId: ids.customer,
          reason: i % 2 === 0 ? `Reason ${i}` : null,
        });
      }
    });
  });

  it('pages with the cursor: every entry once, newest first, and null after the last page', async () => {
    const all = (await auditLogPage('limit=500')).entries;
    expect(all.length).toBeGreaterThan(7);
    const seen: number[] = [];
    let cursor: string | null = '';
    let pages = 0;
    while (cursor !== null) {
      const page = await auditLogPage(`limit=3${cursor ? `&before_id=${cursor}` : ''}`);
      expect(page.entries.length).toBeLessThanOrEqual(3);
      seen.push(...page.entries.map((entry) => entry.id));
      cursor = page.next_cursor;
      pages++;
    }
    expect(pages).toBe(Math.ceil(all.length / 3));
    expect(seen).toEqual(all.map((entry) => entry.id));
    expect(seen).toEqual([...seen].sort((a, b) => b - a));
  });

  it('filters by actor (email, id or type), customer (email or id), key and action, combined', async () => {
    const byKey = await auditLogPage('key=9001');
    expect(byKey.entries).toHaveLength(7);
    expect(byKey.entries.every((entry) => entry.customer_email === 'demo@example.com')).toBe(true);

    const byStaffEmail = await auditLogPage('key=9001&actor=STAFF@example.com');
    expect(byStaffEmail.entries.map((entry) => entry.reason)).toEqual(['Reason 6', 'Reason 4', 'Reason 2', 'Reason 0']);
    expect((await auditLogPage(`key=9001&actor=${ids.staff}`)).entries).toHaveLength(4);
    expect((await auditLogPage('key=9001&actor_type=system')).entries).toHaveLength(3);
    expect((await auditLogPage('key=9001&action=key.minted')).entries).toHaveLength(3);
    expect((await auditLogPage('customer=demo@example.com&action=key.released')).entries).toHaveLength(4);
    expect((await auditLogPage(`customer=${ids.customer}&key=9001`)).entries).toHaveLength(7);

    const nobody = await auditLogPage('actor=nobody@example.com');
    expect(nobody).toEqual({ entries: [], next_cursor: null });
    expect((await auditLogPage('customer=nobody@example.com')).entries).toEqual([]);
    expect((await auditLogPage('key=9002')).entries).toEqual([]);
  });

  it('answers 400 for a bad filter or cursor', async () => {
    for (const query of ['customer=not an email', 'key=abc', 'actor_type=robot', 'before_id=x', 'action=DROP']) {
      const response = await t.app.inject({ url: `/staff/audit-log?${query}`, headers: auth(tokens.staff) });
      expect(response.statusCode, query).toBe(400);
      expect(response.json().code).toBe('invalid_request');
    }
  });

  it('is for staff only: 403 for customers and team members, 401 without a session', async () => {
    expect((await t.app.inject({ url: '/staff/audit-log', headers: auth(tokens.customer) })).statusCode).toBe(403);
    expect((await t.app.inject({ url: '/staff/audit-log', headers: auth(tokens.team) })).statusCode).toBe(403);
    expect((await t.app.inject({ url: '/staff/audit-log' })).statusCode).toBe(401);
  });

  it('has no route that changes or deletes an entry', async () => {
    const before = await t.db.select().from(auditLog);
    const [first] = before;
    for (const method of ['PUT', 'PATCH', 'DELETE', 'POST'] as const) {
      for (const url of ['/staff/audit-log', `/staff/audit-log/${first!.id}`]) {
        const response = await t.app.inject({
          method,
          url,
          headers: auth(tokens.staff),
          payload: { reason: 'Tamper', action: 'x.y' },
        });
        expect(response.statusCode, `${method} ${url}`).toBe(404);
      }
    }
    expect(await t.db.select().from(auditLog)).toEqual(before);
  });
});
