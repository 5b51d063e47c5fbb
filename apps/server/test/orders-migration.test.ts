/**
 * Migration 0017 (issue 21, ADR 044): `upgrade_orders` becomes `orders`, and the legacy store's orders (auth's former
 * `orders` table) are copied into it. Run on a database migrated up to 0015 and seeded with legacy rows, an upgrade
 * order with its invoice and credit note, and a credit-pack order: the kept orders keep their ids (so the documents
 * still point at them), each legacy order is one row of kind 'legacy' with its description and date, and the legacy
 * table is gone. On PGlite (the migration is plain SQL that PostgreSQL runs the same).
 */
import fs from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import { drizzle } from 'drizzle-orm/pglite';
import { migrate } from 'drizzle-orm/pglite/migrator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrationsFolder } from '../src/db/client';
import { migrationsBefore } from './helpers/migrations';

const MIGRATION = '0017_orders-one-table';
let client: PGlite;
let copy: string;

const rows = async <T>(query: string, params: unknown[] = []) => (await client.query<T>(query, params)).rows;

const BILLING = JSON.stringify({
  name: 'Erika',
  email: 'erika@example.com',
  address: { line1: 'A 1', line2: null, city: 'Berlin', state: null, postal_code: '10117', country: 'DE' },
  is_business: false,
  company_name: null,
});

beforeAll(async () => {
  client = new PGlite();
  copy = migrationsBefore(MIGRATION);
  await migrate(drizzle(client), { migrationsFolder: copy });
  // Before 0017: two users, legacy orders of each, an upgrade order with its invoice and credit note, a credit pack.
  await rows(`insert into users (id, email, name, password_hash) values
    (1, 'demo@example.com', 'Demo', 'x'), (2, 'team@example.com', 'Team', 'x')`);
  await rows(`insert into orders (user_id, description, created_at) values
    (1, 'Theme license', '2024-03-01T00:00:00Z'), (1, 'Theme license renewal', '2025-03-01T00:00:00Z'),
    (2, 'Theme license', '2025-01-15T00:00:00Z')`);
  await rows(`insert into license_keys (id, api_key, tier, owner_id) values (10, 'KEY-AAAA', 'REGULAR', 1)`);
  await rows(
    `insert into upgrade_orders (id, kind, user_id, license_key_id, license_key, path, from_tier, to_tier, price_id,
       base_amount_cents, vat_amount_cents, total_amount_cents, vat_rate_bp, reverse_charge, billing, provider,
       provider_payment_id, status, payment_completed_at)
     values (1, 'upgrade', 1, 10, 'KEY-AAAA', 'LITE_TO_REGULAR', 'LITE', 'REGULAR', 'price_x', 12000, 2280, 14280,
       1900, false, $1, 'sandbox', 'pi_1', 'refunded', now())`,
    [BILLING],
  );
  await rows(`insert into credit_packs (id, name, credits, amount_cents) values (5, '12 credits', 12, 5000)`);
  await rows(
    `insert into upgrade_orders (id, kind, user_id, credit_pack_id, credits, price_id, base_amount_cents,
       vat_amount_cents, total_amount_cents, vat_rate_bp, reverse_charge, billing, provider, provider_payment_id, status)
     values (2, 'credit_pack', 2, 5, 12, 'price_c', 5000, 950, 5950, 1900, false, $1, 'sandbox', 'pi_2', 'completed')`,
    [BILLING],
  );
  await rows(`select setval('upgrade_orders_id_seq', 2)`);
  const document = (id: number, kind: string, number: string, credited: number | null) =>
    rows(
      `insert into invoices (id, kind, year, sequence, number, order_id, user_id, issued_at, payment_date, seller, buyer,
         line_description, currency, subtotal_cents, vat_rate_bp, vat_cents, total_cents, reverse_charge, provider,
         credited_invoice_id)
       values ($1, $2, 2026, 1, $3, 1, 1, now(), now(), '{}', '{}', 'Upgrade', 'usd', 12000, 1900, 2280, 14280, false,
         'sandbox', $4)`,
      [id, kind, number, credited],
    );
  await document(100, 'invoice', '2026-000001', null);
  await document(101, 'credit_note', 'CN-2026-000001', 100);
  await migrate(drizzle(client), { migrationsFolder: migrationsFolder() });
});

afterAll(async () => {
  await client?.close();
  if (copy) fs.rmSync(copy, { recursive: true, force: true });
});

describe(`migration ${MIGRATION}`, () => {
  it('keeps the paid orders, their ids and their documents', async () => {
    expect(
      await rows(`select id, kind, user_id, status, total_amount_cents from orders where kind <> 'legacy' order by id`),
    ).toEqual([
      { id: 1, kind: 'upgrade', user_id: 1, status: 'refunded', total_amount_cents: 14280 },
      { id: 2, kind: 'credit_pack', user_id: 2, status: 'completed', total_amount_cents: 5950 },
    ]);
    expect(
      await rows(
        `select i.number, o.id as order_id, o.kind from invoices i join orders o on o.id = i.order_id order by i.id`,
      ),
    ).toEqual([
      { number: '2026-000001', order_id: 1, kind: 'upgrade' },
      { number: 'CN-2026-000001', order_id: 1, kind: 'upgrade' },
    ]);
  });

  it('copies each legacy order once, with a new id of the one sequence, its description and date', async () => {
    const legacy = await rows<{ id: number; user_id: number; description: string; created_at: Date }>(
      `select id, user_id, description, created_at, base_amount_cents, status, provider from orders
       where kind = 'legacy' order by created_at`,
    );
    expect(legacy).toEqual([
      expect.objectContaining({ user_id: 1, description: 'Theme license', base_amount_cents: 0, status: 'completed' }),
      expect.objectContaining({ user_id: 2, description: 'Theme license', provider: 'legacy' }),
      expect.objectContaining({ user_id: 1, description: 'Theme license renewal' }),
    ]);
    expect(legacy.map((row) => row.created_at.toISOString())).toEqual([
      '2024-03-01T00:00:00.000Z',
      '2025-01-15T00:00:00.000Z',
      '2025-03-01T00:00:00.000Z',
    ]);
    // New ids after the kept ones: no order number is shown twice.
    expect(legacy.map((row) => row.id)).toEqual([3, 4, 5]);
    // The next order takes the next id.
    expect(await rows(`select nextval('orders_id_seq') as next`)).toEqual([{ next: 6 }]);
  });

  it('drops the legacy table and upgrade_orders; the checks still refuse a bad row', async () => {
    expect(
      await rows(`select table_name from information_schema.tables where table_name in
        ('upgrade_orders', 'legacy_orders', 'orders') order by table_name`),
    ).toEqual([{ table_name: 'orders' }]);
    await expect(
      rows(
        `insert into orders (kind, user_id, price_id, base_amount_cents, vat_amount_cents, total_amount_cents,
           vat_rate_bp, reverse_charge, billing, provider, description)
         values ('legacy', 1, 'legacy', 100, 0, 100, 0, false, '{}', 'legacy', 'Paid legacy?')`,
      ),
    ).rejects.toThrow(/orders_amounts/);
    await expect(
      rows(
        `insert into orders (kind, user_id, price_id, base_amount_cents, vat_amount_cents, total_amount_cents,
           vat_rate_bp, reverse_charge, billing, provider)
         values ('legacy', 1, 'legacy', 0, 0, 0, 0, false, '{}', 'legacy')`,
      ),
    ).rejects.toThrow(/orders_kind_fields/);
  });
});
