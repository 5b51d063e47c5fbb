import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { seedDemoData } from '../src/db/seed';
import { creditLedger, redeemProducts, users } from '../src/db/schema';
import { createTestApp, type TestApp } from './helpers/test-app';

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
  await seedDemoData(t.app.services, t.app.log);
});

const idOf = async (email: string) =>
  (await t.db.select({ id: users.id }).from(users).where(eq(users.email, email)))[0]!.id;

describe('the credits demo seed', () => {
  it('seeds a REGULAR and a PRO license product and credits for the team member only, once', async () => {
    await seedDemoData(t.app.services, t.app.log);
    const products = await t.db.select().from(redeemProducts);
    expect(products.map((p) => [p.name, p.grantType, p.grantValue, p.costCredits, p.active])).toEqual([
      ['REGULAR License', 'license_level', 'REGULAR', 5, true],
      ['PRO License', 'license_level', 'PRO', 10, true],
    ]);
    const credits = t.app.services.credits;
    expect(await credits.balance(await idOf('team@example.com'))).toEqual({
      balance: 12,
      owed: 0,
      pending: 0,
      can_report: true,
    });
    expect(await credits.balance(await idOf('demo@example.com'))).toEqual({
      balance: 0,
      owed: 0,
      pending: 0,
      can_report: true,
    });
    expect(await t.db.select().from(creditLedger).where(eq(creditLedger.sourceRef, 'seed:team'))).toHaveLength(1);
  });
});
