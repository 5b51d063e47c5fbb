import { and, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import type { HomepageUpdate } from '@keyport/shared/contracts/homepage';
import { orders, users } from '../src/db/schema';
import { seedDemoData } from '../src/db/seed';
import { auth, createTestApp, type TestApp } from './helpers/test-app';

let t: TestApp;
let customer: string;
let staff: string;
let seeded: HomepageUpdate[];

const signIn = async (email: string, password: string) =>
  (await t.app.inject({ method: 'POST', url: '/auth/login', payload: { email, password } })).json().token as string;

beforeAll(async () => {
  t = await createTestApp();
  await seedDemoData(t.app.services, t.app.log);
  customer = await signIn('demo@example.com', 'demo-password');
  staff = await signIn('staff@example.com', 'staff-password');
});

const getFeed = (token: string | null, query = '') =>
  t.app.inject({ url: `/staff/homepage-settings${query}`, headers: token ? auth(token) : {} });
/** A save with a staff reason (issue 12; staff-audit-log.test.ts covers the reason and its audit row). */
const saveFeed = (token: string, payload: object) =>
  t.app.inject({
    method: 'PUT',
    url: '/staff/homepage-settings',
    headers: auth(token),
    payload: Array.isArray(payload) ? payload : { reason: 'Feed test', ...payload },
  });

const update = (title: string): HomepageUpdate => ({
  title,
  body: `${title}: what changed and why it matters.`,
  date: '2025-06-01',
  link: 'https://example.com/changelog',
});

describe('GET /staff/homepage-settings (the updates feed)', () => {
  it('gives any signed-in customer the three seeded, published updates, never cached', async () => {
    for (const query of ['', '?preview=false']) {
      const response = await getFeed(customer, query);
      expect(response.statusCode).toBe(200);
      expect(response.headers['cache-control']).toBe('no-store');
      seeded = response.json().updates;
      expect(seeded).toHaveLength(3);
      for (const entry of seeded) {
        expect(entry.title).toBeTypeOf('string');
        expect(entry.body).toBeTypeOf('string');
        expect(entry.date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      }
    }
    expect(seeded.some((entry) => entry.link)).toBe(true);
  });

  it('keeps the draft preview for staff: 403 for a customer', async () => {
    const response = await getFeed(customer, '?preview=true');
    expect(response.statusCode).toBe(403);
    expect(response.json().error).toBeTypeOf('string');
    expect((await getFeed(staff, '?preview=true')).json()).toEqual({ updates: seeded });
  });

  it('needs a session, and a valid preview flag', async () => {
    expect((await getFeed(null)).statusCode).toBe(401);
    expect((await getFeed(customer, '?preview=yes')).statusCode).toBe(400);
  });
});

describe('PUT /staff/homepage-settings', () => {
  it('saves a draft that staff preview while customers still see the published feed', async () => {
    const draft = [update('Draft news')];
    const saved = await saveFeed(staff, { updates: draft, publish: false });
    expect(saved.statusCode).toBe(200);
    expect(saved.json()).toEqual({ updates: draft });
    expect((await getFeed(staff, '?preview=true')).json()).toEqual({ updates: draft });
    expect((await getFeed(customer)).json()).toEqual({ updates: seeded });
  });

  it('publishes: customers see the new feed, and it is the draft too', async () => {
    const published = [update('Theme 5.0'), { ...update('Maintenance'), link: null }];
    const saved = await saveFeed(staff, { updates: published, publish: true });
    expect(saved.statusCode).toBe(200);
    expect(saved.json()).toEqual({ updates: published });
    expect((await getFeed(customer)).json()).toEqual({ updates: published });
    expect((await getFeed(staff, '?preview=true')).json()).toEqual({ updates: published });
  });

  it('trims text and can publish an empty feed', async () => {
    const saved = await saveFeed(staff, {
      updates: [{ title: '  Spaced  ', body: ' Body ', date: '2025-07-01' }],
      publish: false,
    });
    expect(saved.json()).toEqual({ updates: [{ title: 'Spaced', body: 'Body', date: '2025-07-01' }] });
    expect((await saveFeed(staff, { updates: [], publish: true })).statusCode).toBe(200);
    expect((await getFeed(customer)).json()).toEqual({ updates: [] });
  });

  it('rejects invalid updates with 400 and saves nothing', async () => {
    const before = (await getFeed(staff, '?preview=true')).json();
    const cases: [object, string][] = [
      [{ updates: [{ ...update('x'), title: '  ' }], publish: true }, 'title is required'],
      [{ updates: [{ ...update('x'), date: '1 June 2025' }], publish: true }, 'date must be YYYY-MM-DD'],
      [{ updates: [{ ...update('x'), link: 'javascript:alert(1)' }], publish: true }, 'must be an http(s) URL'],
      [{ updates: Array.from({ length: 51 }, () => update('x')), publish: true }, 'at most 50 updates'],
    ];
    for (const [payload, error] of cases) {
      const response = await saveFeed(staff, payload);
      expect(response.statusCode, JSON.stringify(payload).slice(0, 80)).toBe(400);
      expect(response.json()).toEqual({ error, code: 'invalid_request' });
    }
    for (const payload of [{ updates: [update('x')] }, { publish: true }, []]) {
      expect((await saveFeed(staff, payload)).statusCode).toBe(400);
    }
    expect((await getFeed(staff, '?preview=true')).json()).toEqual(before);
  });

  it('is for staff only', async () => {
    const response = await saveFeed(customer, { updates: [update('Mine')], publish: true });
    expect(response.statusCode).toBe(403);
    const anonymous = await t.app.inject({
      method: 'PUT',
      url: '/staff/homepage-settings',
      payload: { updates: [], publish: true, reason: 'Anonymous' },
    });
    expect(anonymous.statusCode).toBe(401);
  });

  it('is not overwritten when the demo data is seeded again', async () => {
    await saveFeed(staff, { updates: [update('Kept')], publish: true });
    // Without the demo customer the seed runs again; the feed staff edited stays as it is. (Orders keep their buyer:
    // the demo customer's legacy orders go first.)
    const [demo] = await t.db.select({ id: users.id }).from(users).where(eq(users.email, 'demo@example.com'));
    await t.db.delete(orders).where(and(eq(orders.userId, demo!.id), eq(orders.kind, 'legacy')));
    await t.db.delete(users).where(eq(users.id, demo!.id));
    expect(await seedDemoData(t.app.services, t.app.log)).toBe(true);
    expect((await getFeed(staff)).json()).toEqual({ updates: [update('Kept')] });
    expect((await getFeed(staff, '?preview=true')).json()).toEqual({ updates: [update('Kept')] });
  });
});
