import { and, count, eq, gt } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import type { StaffCustomer, StaffCustomerSummary } from '@keyport/shared/contracts/staff-customers';
import { auditLog, creditLedger, emailOutbox, licenseKeys, orders, users } from '../src/db/schema';
import { ownedKey } from './helpers/keys';
import { auth, createTestApp, signUp, type TestApp } from './helpers/test-app';

let t: TestApp;
let staff: { token: string; id: number };
let people = 0;

beforeAll(async () => {
  t = await createTestApp();
  staff = await signUp(t, 'customers-staff@example.com', { role: 'staff', ip: '10.71.0.1' });
});

const newCustomer = (prefix = 'cust', role?: string) =>
  signUp(t, `${prefix}-${++people}@example.com`, {
    ip: `10.71.${Math.floor(people / 250) + 1}.${(people % 250) + 1}`,
    ...(role ? { role } : {}),
  });

const call = (method: 'GET' | 'POST', url: string, token?: string, payload?: object) =>
  t.app.inject({
    method,
    url,
    ...(token ? { headers: auth(token) } : {}),
    ...(payload === undefined ? {} : { payload }),
  });

async function search(q: string, cursor?: string) {
  const params = new URLSearchParams({ q, ...(cursor ? { cursor } : {}) });
  const response = await call('GET', `/staff/customers?${params}`, staff.token);
  expect(response.statusCode, response.body).toBe(200);
  return response.json<{ customers: StaffCustomerSummary[]; next_cursor: string | null }>();
}

const foundIds = async (q: string) => (await search(q)).customers.map((c) => c.id);

async function customerPage(id: number) {
  const response = await call('GET', `/staff/customers/${id}`, staff.token);
  expect(response.statusCode, response.body).toBe(200);
  return response.json<StaffCustomer>();
}

/** The staff member's audit rows after `afterId`. */
const staffAuditRows = (afterId: number) =>
  t.db
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.actorId, String(staff.id)), gt(auditLog.id, afterId)));

async function lastAuditId() {
  const rows = await t.db.select({ id: auditLog.id }).from(auditLog);
  return Math.max(0, ...rows.map((row) => row.id));
}

/** Runs `action` and expects exactly one new audit row by the staff member, which it returns. */
async function oneAuditRow(action: () => Promise<unknown>) {
  const before = await lastAuditId();
  await action();
  const rows = await staffAuditRows(before);
  expect(rows).toHaveLength(1);
  return rows[0]!;
}

async function connect(keyApi: string, domains: Partial<typeof licenseKeys.$inferInsert>) {
  await t.db.update(licenseKeys).set(domains).where(eq(licenseKeys.apiKey, keyApi));
}

const outboxTo = (email: string) => t.db.select().from(emailOutbox).where(eq(emailOutbox.to, email));

describe('access', () => {
  const routes = [
    ['GET', '/staff/customers', undefined],
    ['GET', '/staff/customers/1', undefined],
    ['POST', '/staff/customers/1/keys', { tier: 'LITE', count: 1, reason: 'access test' }],
    ['POST', '/staff/customers/1/keys/1/release', { reason: 'access test' }],
    ['POST', '/staff/customers/1/keys/1/resend-email', { reason: 'access test' }],
    ['POST', '/staff/keys', { tier: 'LITE', count: 1, reason: 'access test' }],
    ['POST', '/staff/credits', { email: 'x@example.com', amount: 1, reason: 'access test' }],
  ] as const;

  it('refuses anonymous callers (401)', async () => {
    for (const [method, url, payload] of routes) {
      const response = await call(method, url, undefined, payload);
      expect(response.statusCode, `${method} ${url}`).toBe(401);
    }
  });

  it('refuses customers and team members (403), and writes nothing', async () => {
    const before = await lastAuditId();
    for (const role of [undefined, 'team']) {
      const { token } = await newCustomer('access', role);
      for (const [method, url, payload] of routes) {
        const response = await call(method, url, token, payload);
        expect(response.statusCode, `${role ?? 'customer'} ${method} ${url}`).toBe(403);
      }
    }
    expect(await t.db.select().from(auditLog).where(gt(auditLog.id, before))).toEqual([]);
  });
});

describe('GET /staff/customers (search)', () => {
  it('finds a customer by part of their email, in any case', async () => {
    const { id } = await newCustomer('Findme-Email');
    expect(await foundIds('findme-email')).toEqual([id]);
    expect(await foundIds('FINDME-EMAIL-')).toEqual([id]);
  });

  it('finds the owner of a license key, typed in any case', async () => {
    const { id } = await newCustomer();
    const apiKey = await ownedKey(t, id, 'PRO');
    expect(await foundIds(apiKey)).toEqual([id]);
    expect(await foundIds(` ${apiKey.toLowerCase()} `)).toEqual([id]);
  });

  it('finds the owner by each of a key’s domains, whole or by their start, with or without the scheme', async () => {
    const cases: [Partial<typeof licenseKeys.$inferInsert>, string[]][] = [
      [{ myshopify: 'alpine-gear.myshopify.com' }, ['alpine-gear.myshopify.com', 'alpine-gear', 'ALPINE-GEAR.my']],
      [{ mainUrl: 'https://birch-and-bloom.com' }, ['birch-and-bloom.com', 'https://birch-and-bloom.com/', 'birch-an']],
      [{ secondaryUrl: 'https://cobalt-coffee.de' }, ['cobalt-coffee.de', 'http://cobalt-coffee']],
      [{ linkedAppStore: 'dune-dwellers.com' }, ['dune-dwellers.com', 'https://dune-dwellers.com/products/x']],
    ];
    for (const [domains, queries] of cases) {
      const { id } = await newCustomer();
      await connect(await ownedKey(t, id), domains);
      for (const q of queries) expect(await foundIds(q), q).toEqual([id]);
    }
  });

  it('treats LIKE wildcards in the search as text', async () => {
    const { id } = await newCustomer();
    await connect(await ownedKey(t, id), { myshopify: 'percent-shop.myshopify.com' });
    expect(await foundIds('%')).not.toContain(id);
    expect(await foundIds('_ercent-shop')).not.toContain(id);
  });

  it('answers each customer with their key count and credit balance', async () => {
    const { id } = await newCustomer('counted');
    await ownedKey(t, id);
    await ownedKey(t, id);
    const grant = await call('POST', '/staff/credits', staff.token, {
      email: `counted-${people}@example.com`,
      amount: 7,
      reason: 'Welcome bonus',
    });
    expect(grant.statusCode, grant.body).toBe(200);
    const [found] = (await search(`counted-${people}@`)).customers;
    expect(found).toMatchObject({
      id,
      email: `counted-${people}@example.com`,
      keys: 2,
      credits_balance: 7,
      role: null,
    });
  });

  it('pages with a stable keyset cursor: every match once, in id order, new accounts at the end', async () => {
    const inserted = await t.db
      .insert(users)
      .values(
        Array.from({ length: 120 }, (_, i) => ({ email: `paged-${i}@example.com`, name: 'P', passwordHash: 'x' })),
      )
      .returning({ id: users.id });
    const seen: number[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const page = await search('paged-', cursor);
      seen.push(...page.customers.map((c) => c.id));
      cursor = page.next_cursor ?? undefined;
      pages++;
      // An account created while staff page through: it sorts last, nothing shifts.
      if (pages === 1)
        await t.db.insert(users).values({ email: 'paged-late@example.com', name: 'P', passwordHash: 'x' });
    } while (cursor);
    expect(pages).toBe(3);
    const late = await t.db.select({ id: users.id }).from(users).where(eq(users.email, 'paged-late@example.com'));
    expect(seen).toEqual([...inserted.map((row) => row.id), late[0]!.id]);
  });

  it('lists everyone without a search, and refuses a bad cursor', async () => {
    const first = await search('');
    expect(first.customers.length).toBeGreaterThan(0);
    expect(first.customers.map((c) => c.id)).toEqual([...first.customers.map((c) => c.id)].sort((a, b) => a - b));
    const bad = await call('GET', '/staff/customers?cursor=abc', staff.token);
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ code: expect.any(String), error: expect.any(String) });
  });
});

describe('GET /staff/customers/:id', () => {
  it('shows keys, stores, orders, invoices, upgrades, credits and reports', async () => {
    const customer = await newCustomer('page');
    const email = `page-${people}@example.com`;
    const apiKey = await ownedKey(t, customer.id, 'REGULAR');
    await connect(apiKey, { myshopify: 'page-shop.myshopify.com', mainUrl: 'https://page-shop.com' });
    await call('POST', '/staff/credits', staff.token, { email, amount: 3, reason: 'Goodwill gesture' });
    const report = await call('POST', '/credits/report-store', customer.token, {
      storeDomains: ['copycat-1.com', 'copycat-2.com', 'copycat-3.com', 'copycat-4.com', 'copycat-5.com'],
    });
    expect(report.statusCode, report.body).toBe(200);
    const [keyRow] = await t.db.select().from(licenseKeys).where(eq(licenseKeys.apiKey, apiKey));
    const order = await t.db.transaction(async (tx) => {
      const [row] = await tx
        .insert(orders)
        .values({
          userId: customer.id,
          licenseKeyId: keyRow!.id,
          licenseKey: apiKey,
          path: 'REGULAR_TO_PRO',
          fromTier: 'REGULAR',
          toTier: 'PRO',
          priceId: 'price_test',
          baseAmountCents: 5000,
          vatAmountCents: 950,
          totalAmountCents: 5950,
          vatRateBp: 1900,
          reverseCharge: false,
          billing: {
            name: 'Page',
            email,
            address: { line1: 'A', line2: null, city: 'B', state: null, postal_code: '1', country: 'DE' },
            is_business: false,
            company_name: null,
          },
          provider: 'sandbox',
          providerPaymentId: 'pi_page',
          status: 'completed',
          paymentCompletedAt: new Date(),
        })
        .returning();
      await t.app.services.invoices.orderCompleted(tx, row!);
      return row!;
    });

    const page = await customerPage(customer.id);
    expect(page.customer).toMatchObject({ id: customer.id, email, role: null });
    expect(page.keys).toEqual([
      expect.objectContaining({
        api_key: apiKey,
        tier: 'REGULAR',
        myshopify: 'page-shop.myshopify.com',
        main_url: 'https://page-shop.com',
      }),
    ]);
    expect(page.keys[0]).not.toHaveProperty('auth_token');
    expect(page.orders).toEqual([
      expect.objectContaining({
        id: order.id,
        kind: 'upgrade',
        status: 'completed',
        provider: 'sandbox',
        provider_payment_id: 'pi_page',
        total: 5950,
      }),
    ]);
    expect(page.invoices).toEqual([expect.objectContaining({ order_id: order.id, kind: 'invoice', total: 5950 })]);
    expect(page.upgrade_runs).toEqual([]);
    // 3 granted by staff; the report's credit is pending review (ADR 037), not in the balance.
    expect(page.credits).toMatchObject({ balance: 3, owed: 0, pending: 1 });
    expect(page.credits.recent.map((entry) => entry.amount)).toEqual([3]);
    expect(page.reports).toEqual([
      expect.objectContaining({
        status: 'pending',
        credit: { amount: 1, state: 'pending' },
        domains: expect.arrayContaining([expect.any(Object)]),
      }),
    ]);
    expect(page.stores).toEqual([]);
  });

  it('is 404 for an account that does not exist, 400 for a bad id', async () => {
    const missing = await call('GET', '/staff/customers/999999', staff.token);
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({ error: 'Customer not found.', code: 'customer_not_found' });
    expect((await call('GET', '/staff/customers/abc', staff.token)).statusCode).toBe(400);
  });
});

describe('staff actions: a reason each, one audit row each', () => {
  it('mints keys owned by the customer and emails each one', async () => {
    const customer = await newCustomer('minted');
    const email = `minted-${people}@example.com`;
    let body: { keys: { id: number; api_key: string; tier: string }[] } = { keys: [] };
    const row = await oneAuditRow(async () => {
      const response = await call('POST', `/staff/customers/${customer.id}/keys`, staff.token, {
        tier: 'PRO',
        count: 2,
        reason: 'Replacement for a lost order',
      });
      expect(response.statusCode, response.body).toBe(201);
      body = response.json();
    });
    expect(row).toMatchObject({
      actorType: 'staff',
      action: 'keys.minted_for_customer',
      customerUserId: customer.id,
      reason: 'Replacement for a lost order',
    });
    expect(body.keys).toHaveLength(2);
    const stored = await t.db.select().from(licenseKeys).where(eq(licenseKeys.ownerId, customer.id));
    expect(stored.map((key) => key.apiKey).sort()).toEqual(body.keys.map((key) => key.api_key).sort());
    expect(stored.every((key) => key.tier === 'PRO' && key.claimedAt !== null)).toBe(true);
    const mails = await outboxTo(email);
    expect(mails).toHaveLength(2);
    for (const key of body.keys) expect(mails.some((mail) => mail.body.includes(key.api_key))).toBe(true);
    // The customer sees them on their dashboard.
    const dashboard = await call('GET', '/keys/', customer.token);
    expect(
      dashboard
        .json<{ api_key: string }[]>()
        .map((key) => key.api_key)
        .sort(),
    ).toEqual(body.keys.map((key) => key.api_key).sort());
  });

  it('refuses a mint without a reason, for nobody, or too many: nothing written', async () => {
    const customer = await newCustomer();
    const before = await lastAuditId();
    for (const [url, payload, status] of [
      [`/staff/customers/${customer.id}/keys`, { tier: 'PRO', count: 1 }, 400],
      [`/staff/customers/${customer.id}/keys`, { tier: 'PRO', count: 1, reason: '  ab ' }, 400],
      [`/staff/customers/${customer.id}/keys`, { tier: 'PRO', count: 21, reason: 'too many' }, 400],
      ['/staff/customers/999999/keys', { tier: 'PRO', count: 1, reason: 'nobody' }, 404],
    ] as const) {
      const response = await call('POST', url, staff.token, payload);
      expect(response.statusCode, JSON.stringify(payload)).toBe(status);
    }
    expect(await staffAuditRows(before)).toEqual([]);
    const [{ n }] = (await t.db
      .select({ n: count() })
      .from(licenseKeys)
      .where(eq(licenseKeys.ownerId, customer.id))) as [{ n: number }];
    expect(n).toBe(0);
  });

  it('releases a key from the account: store and token cleared, the key unclaimed', async () => {
    const customer = await newCustomer();
    const apiKey = await ownedKey(t, customer.id);
    await connect(apiKey, { myshopify: 'released.myshopify.com', authToken: 'token', tokenVersion: 3 });
    const [key] = await t.db.select().from(licenseKeys).where(eq(licenseKeys.apiKey, apiKey));
    const url = `/staff/customers/${customer.id}/keys/${key!.id}/release`;
    const row = await oneAuditRow(async () => {
      const response = await call('POST', url, staff.token, { reason: 'Sold the store' });
      expect(response.statusCode, response.body).toBe(200);
      expect(response.json()).toEqual({ released: true });
    });
    expect(row).toMatchObject({
      action: 'key.released',
      objectType: 'license_key',
      objectId: String(key!.id),
      customerUserId: customer.id,
      reason: 'Sold the store',
    });
    const [after] = await t.db.select().from(licenseKeys).where(eq(licenseKeys.id, key!.id));
    expect(after).toMatchObject({ ownerId: null, myshopify: null, authToken: null, tokenVersion: 4 });
    const before = await lastAuditId();
    const again = await call('POST', url, staff.token, { reason: 'Sold the store' });
    expect(again.statusCode).toBe(404);
    expect(await staffAuditRows(before)).toEqual([]);
  });

  it('releases only a key the customer holds', async () => {
    const owner = await newCustomer();
    const other = await newCustomer();
    const apiKey = await ownedKey(t, owner.id);
    const [key] = await t.db.select().from(licenseKeys).where(eq(licenseKeys.apiKey, apiKey));
    const before = await lastAuditId();
    const response = await call('POST', `/staff/customers/${other.id}/keys/${key!.id}/release`, staff.token, {
      reason: 'Wrong account',
    });
    expect(response.statusCode).toBe(404);
    expect(await staffAuditRows(before)).toEqual([]);
    const [still] = await t.db.select().from(licenseKeys).where(eq(licenseKeys.id, key!.id));
    expect(still!.ownerId).toBe(owner.id);
  });

  it('re-sends a key email to its owner', async () => {
    const customer = await newCustomer('resend');
    const email = `resend-${people}@example.com`;
    const apiKey = await ownedKey(t, customer.id, 'REGULAR');
    const [key] = await t.db.select().from(licenseKeys).where(eq(licenseKeys.apiKey, apiKey));
    const row = await oneAuditRow(async () => {
      const response = await call('POST', `/staff/customers/${customer.id}/keys/${key!.id}/resend-email`, staff.token, {
        reason: 'Customer lost the email',
      });
      expect(response.statusCode, response.body).toBe(202);
      expect(response.json()).toEqual({ sent_to: email });
    });
    expect(row).toMatchObject({ action: 'key.email_resent', reason: 'Customer lost the email' });
    const mails = await outboxTo(email);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.body).toContain(apiKey);
    const stranger = await newCustomer();
    const refused = await call('POST', `/staff/customers/${stranger.id}/keys/${key!.id}/resend-email`, staff.token, {
      reason: 'Wrong account',
    });
    expect(refused.statusCode).toBe(404);
  });

  it('grants and removes credits with the reason in the audit row and the ledger note', async () => {
    const customer = await newCustomer('credited');
    const email = `credited-${people}@example.com`;
    const granted = await oneAuditRow(async () => {
      const response = await call('POST', '/staff/credits', staff.token, { email, amount: 5, reason: 'Beta tester' });
      expect(response.statusCode, response.body).toBe(200);
    });
    expect(granted).toMatchObject({ action: 'credits.granted', customerUserId: customer.id, reason: 'Beta tester' });
    const removed = await oneAuditRow(async () => {
      const response = await call('POST', '/staff/credits', staff.token, { email, amount: -2, reason: 'Typo fix' });
      expect(response.statusCode, response.body).toBe(200);
    });
    expect(removed).toMatchObject({ action: 'credits.removed', reason: 'Typo fix' });
    const notes = await t.db.select().from(creditLedger).where(eq(creditLedger.userId, customer.id));
    expect(notes.map((entry) => entry.note)).toEqual(['Beta tester', 'Typo fix']);
    const before = await lastAuditId();
    const noReason = await call('POST', '/staff/credits', staff.token, { email, amount: 1 });
    expect(noReason.statusCode).toBe(400);
    expect(await staffAuditRows(before)).toEqual([]);
  });

  it('mints unclaimed keys (POST /staff/keys) with the reason audited', async () => {
    let minted: string[] = [];
    const row = await oneAuditRow(async () => {
      const response = await call('POST', '/staff/keys', staff.token, {
        tier: 'LITE',
        count: 3,
        reason: 'Reseller batch',
      });
      expect(response.statusCode, response.body).toBe(201);
      minted = response.json<{ keys: string[] }>().keys;
    });
    expect(row).toMatchObject({ action: 'keys.minted', reason: 'Reseller batch', customerUserId: null });
    expect(row.data).toMatchObject({ tier: 'LITE', count: 3, keys: minted });
  });
});
