import { eq, isNull } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { seedDemoData } from '../src/db/seed';
import { licenseKeys } from '../src/db/schema';
import { auth, createTestApp, signUp, type TestApp } from './helpers/test-app';

let t: TestApp;
let demoToken: string;

beforeAll(async () => {
  t = await createTestApp();
  await seedDemoData(t.app.services, t.app.log);
  const response = await t.app.inject({
    method: 'POST',
    url: '/auth/login',
    payload: { email: 'demo@example.com', password: 'demo-password' },
  });
  demoToken = response.json().token;
});

describe('GET /keys/', () => {
  it("returns the demo customer's 9 keys as the spec's Key entity, field for field", async () => {
    const response = await t.app.inject({ url: '/keys/', headers: auth(demoToken) });
    expect(response.statusCode).toBe(200);
    const keys = response.json<Record<string, unknown>[]>();
    expect(keys).toHaveLength(9);
    for (const key of keys) {
      expect(Object.keys(key).sort()).toEqual(
        ['api_key', 'id', 'lite', 'linked_app_store', 'main_url', 'myshopify', 'pro', 'secondary_url'].sort(),
      );
    }
    expect(keys.filter((k) => k.pro && !k.lite)).toHaveLength(3);
    expect(keys.filter((k) => k.lite && !k.pro)).toHaveLength(3);
    expect(keys.filter((k) => !k.lite && !k.pro)).toHaveLength(3);
    expect(keys.some((k) => k.secondary_url === 'None')).toBe(true);
    expect(keys.some((k) => k.main_url && k.myshopify && k.secondary_url && k.secondary_url !== 'None')).toBe(true);
    expect(keys.some((k) => !k.main_url && !k.myshopify && !k.linked_app_store)).toBe(true);
  });

  it('answers without the trailing slash too', async () => {
    expect((await t.app.inject({ url: '/keys', headers: auth(demoToken) })).statusCode).toBe(200);
  });

  it("never shows another user's keys", async () => {
    const { token } = await signUp(t, 'stranger@example.com');
    const response = await t.app.inject({ url: '/keys/', headers: auth(token) });
    expect(response.json()).toEqual([]);
  });

  it('needs a session', async () => {
    const response = await t.app.inject({ url: '/keys/' });
    expect(response.statusCode).toBe(401);
    expect(response.json()).toMatchObject({ error: 'Authentication required' });
  });
});

describe('GET /auth/user-stores and the seeded user', () => {
  it('lists the demo user stores', async () => {
    const response = await t.app.inject({ url: '/auth/user-stores', headers: auth(demoToken) });
    expect(response.json()).toEqual({
      stores: [
        { id: expect.any(Number), myshopify_domain: 'aurora-outfitters.myshopify.com' },
        { id: expect.any(Number), myshopify_domain: 'bloom-house.myshopify.com' },
      ],
    });
  });

  it('gives the demo user two orders, the newest about 8 months old', async () => {
    const me = (await t.app.inject({ url: '/auth/me', headers: auth(demoToken) })).json();
    expect(me.orders).toHaveLength(2);
    const newest = Math.max(...me.orders.map((o: { created_at: string }) => Date.parse(o.created_at)));
    const months = (Date.now() - newest) / (30.44 * 24 * 3600 * 1000);
    expect(months).toBeGreaterThan(7.5);
    expect(months).toBeLessThan(8.5);
  });

  it('seeds only once', async () => {
    expect(await seedDemoData(t.app.services, t.app.log)).toBe(false);
    expect((await t.db.select().from(licenseKeys).where(isNull(licenseKeys.ownerId))).length).toBe(5);
  });
});

describe('POST /staff/keys', () => {
  it('mints unclaimed, hard-to-guess keys for staff', async () => {
    const { token } = await signUp(t, 'ops@example.com', { role: 'staff' });
    const response = await t.app.inject({
      method: 'POST',
      url: '/staff/keys',
      headers: auth(token),
      payload: { tier: 'PRO', count: 25, reason: 'Shop launch batch' },
    });
    expect(response.statusCode).toBe(201);
    const { keys } = response.json<{ keys: string[] }>();
    expect(keys).toHaveLength(25);
    expect(new Set(keys).size).toBe(25);
    for (const key of keys) expect(key).toMatch(/^[0-9A-HJKMNP-TV-Z]{5}(-[0-9A-HJKMNP-TV-Z]{5}){4}$/);
    const stored = await t.db.select().from(licenseKeys).where(eq(licenseKeys.apiKey, keys[0]!));
    expect(stored[0]).toMatchObject({ tier: 'PRO', ownerId: null });
  });

  it('is forbidden to customers and team members, and needs a session', async () => {
    for (const role of [undefined, 'team']) {
      const { token } = await signUp(t, `not-staff-${role ?? 'customer'}@example.com`, { role });
      const response = await t.app.inject({
        method: 'POST',
        url: '/staff/keys',
        headers: auth(token),
        payload: { tier: 'LITE', count: 1, reason: 'nope' },
      });
      expect(response.statusCode).toBe(403);
      expect(response.json().error).toBeTypeOf('string');
    }
    const anonymous = await t.app.inject({
      method: 'POST',
      url: '/staff/keys',
      payload: { tier: 'LITE', count: 1, reason: 'nope' },
    });
    expect(anonymous.statusCode).toBe(401);
  });

  it('checks access before the body: a customer gets 403 even for a bad body', async () => {
    const { token } = await signUp(t, 'curious@example.com');
    const response = await t.app.inject({
      method: 'POST',
      url: '/staff/keys',
      headers: auth(token),
      payload: { tier: 'GOLD' },
    });
    expect(response.statusCode).toBe(403);
  });

  it('validates the tier and count, naming the field when zod speaks', async () => {
    const { token } = await signUp(t, 'ops3@example.com', { role: 'staff' });
    const response = await t.app.inject({
      method: 'POST',
      url: '/staff/keys',
      headers: auth(token),
      payload: { tier: 'PRO', reason: 'a batch' },
    });
    expect(response.json().error).toMatch(/^count: Invalid input/);
  });

  it('validates the tier and count', async () => {
    const { token } = await signUp(t, 'ops2@example.com', { role: 'staff' });
    for (const payload of [
      { tier: 'GOLD', count: 1, reason: 'a batch' },
      { tier: 'PRO', count: 0, reason: 'a batch' },
      { tier: 'PRO', count: 1.5, reason: 'a batch' },
      { tier: 'PRO', reason: 'a batch' },
      { tier: 'PRO', count: 1 },
      { tier: 'PRO', count: 1, reason: ' x ' },
    ]) {
      const response = await t.app.inject({ method: 'POST', url: '/staff/keys', headers: auth(token), payload });
      expect(response.statusCode).toBe(400);
      expect(response.json().error).toBeTypeOf('string');
    }
  });
});
