/**
 * ADR 049: `prepareArrayRows` runs a drizzle-built statement as the driver's own prepared statement (rows as arrays,
 * made into objects by the caller), on PGlite and on PostgreSQL alike. The keys list (`GET /keys/`) reads through it.
 */
import { asc, eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { prepareArrayRows } from '../src/db/array-rows';
import { licenseKeys } from '../src/db/schema';
import { prepareListKeysByOwner } from '../src/modules/keys/keys.repo';
import { claimNewKey, issueThemeToken } from './helpers/releases';
import { auth, createTestApp, signUp, type TestApp } from './helpers/test-app';

let t: TestApp;
let owner: { token: string; id: number };
let other: { token: string; id: number };

beforeAll(async () => {
  t = await createTestApp();
  owner = await signUp(t, 'array-rows-owner@example.com', { ip: '10.91.0.1' });
  other = await signUp(t, 'array-rows-other@example.com', { ip: '10.91.0.2' });
  for (const tier of ['PRO', 'LITE', 'REGULAR'] as const) await claimNewKey(t, owner.token, tier);
  const connected = await claimNewKey(t, owner.token, 'REGULAR');
  await issueThemeToken(t, owner.token, connected.apiKey);
  await claimNewKey(t, other.token, 'PRO');
});

describe('prepareArrayRows', () => {
  it("gives the keys list exactly what drizzle's own select gives, in order, for each owner", async () => {
    const list = prepareListKeysByOwner(t.db);
    for (const user of [owner, other]) {
      const expected = await t.db
        .select({
          id: licenseKeys.id,
          api_key: licenseKeys.apiKey,
          pro: sql<boolean>`${licenseKeys.tier} = 'PRO'`,
          lite: sql<boolean>`${licenseKeys.tier} = 'LITE'`,
          linked_app_store: licenseKeys.linkedAppStore,
          main_url: licenseKeys.mainUrl,
          myshopify: licenseKeys.myshopify,
          secondary_url: licenseKeys.secondaryUrl,
        })
        .from(licenseKeys)
        .where(eq(licenseKeys.ownerId, user.id))
        .orderBy(asc(licenseKeys.id));
      // Twice: the second run reuses the statement the first one prepared on its connection.
      expect(await list(user.id)).toEqual(expected);
      expect(await list(user.id)).toEqual(expected);
    }
    expect((await list(owner.id)).map((key) => [key.pro, key.lite])).toEqual([
      [true, false],
      [false, true],
      [false, false],
      [false, false],
    ]);
    expect((await list(owner.id)).some((key) => key.main_url !== null)).toBe(true);
    expect(await list(-1)).toEqual([]);
  });

  it('fills every placeholder by name, and gives the driver its error', async () => {
    const query = t.db
      .select({ n: sql<number>`${sql.placeholder('a')}::int + ${sql.placeholder('b')}::int` })
      .from(sql`(select 1) as one`);
    const sum = prepareArrayRows(t.db, 'array_rows_test_sum', query, (row) => ({ n: row[0] as number }));
    expect(await sum({ a: 2, b: 40 })).toEqual([{ n: 42 }]);
    expect(await sum({ a: -1, b: 1 })).toEqual([{ n: 0 }]);
    await expect(sum({ a: 'not a number', b: 1 })).rejects.toThrow(/invalid input syntax for type integer/);
  });

  it('serves GET /keys/ with the same keys, connected one included', async () => {
    const response = await t.app.inject({ url: '/keys/', headers: auth(owner.token) });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual(await prepareListKeysByOwner(t.db)(owner.id));
  });
});
