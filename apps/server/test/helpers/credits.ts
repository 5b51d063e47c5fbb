import { eq, sql } from 'drizzle-orm';
import { creditLedger } from '../../src/db/schema';
import type { TestApp } from './test-app';

/** The sum of a user's ledger amounts: always the account's balance minus what it owes. */
export async function ledgerSum(t: TestApp, userId: number): Promise<number> {
  const [row] = await t.db
    .select({ sum: sql<string>`coalesce(sum(${creditLedger.amount}), 0)` })
    .from(creditLedger)
    .where(eq(creditLedger.userId, userId));
  return Number(row!.sum);
}
