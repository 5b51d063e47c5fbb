import { and, asc, desc, eq, inArray, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import {
  creditAccounts,
  creditLedger,
  creditRedemptions,
  redeemProducts,
  type CreditLedgerKind,
} from '../../db/schema';

export type CreditLedgerRow = typeof creditLedger.$inferSelect;
export interface AccountState {
  balance: number;
  owed: number;
}

const accountState = { balance: creditAccounts.balance, owed: creditAccounts.owed };

/** The account row exists from the first movement on (a no-op when it does). */
export async function ensureAccount(db: DbOrTx, userId: number): Promise<void> {
  await db.insert(creditAccounts).values({ userId }).onConflictDoNothing();
}

/** The balances of these users (absent: no account yet, 0). */
export async function findBalances(db: DbOrTx, userIds: number[]): Promise<Map<number, number>> {
  if (userIds.length === 0) return new Map();
  const rows = await db
    .select({ userId: creditAccounts.userId, balance: creditAccounts.balance })
    .from(creditAccounts)
    .where(inArray(creditAccounts.userId, userIds));
  return new Map(rows.map((row) => [row.userId, row.balance]));
}

export function findAccount(db: DbOrTx, userId: number): Promise<AccountState | null> {
  return db
    .select(accountState)
    .from(creditAccounts)
    .where(eq(creditAccounts.userId, userId))
    .then((rows) => rows[0] ?? null);
}

/**
 * Adds `amount` credits, repaying what is owed first. Every SET expression sees the row as it was, so one statement
 * moves both columns consistently.
 */
export function addCredits(db: DbOrTx, userId: number, amount: number): Promise<AccountState | null> {
  return db
    .update(creditAccounts)
    .set({
      owed: sql`greatest(${creditAccounts.owed} - ${amount}, 0)`,
      balance: sql`${creditAccounts.balance} + greatest(${amount} - ${creditAccounts.owed}, 0)`,
      updatedAt: sql`now()`,
    })
    .where(eq(creditAccounts.userId, userId))
    .returning(accountState)
    .then((rows) => rows[0] ?? null);
}

/**
 * Spends `amount` credits only when the balance covers it and nothing is owed (one conditional statement: of many
 * concurrent spends, only those the balance covers succeed). Null otherwise.
 */
export function spendCredits(
  db: DbOrTx,
  userId: number,
  amount: number,
  { requireNothingOwed }: { requireNothingOwed: boolean },
): Promise<AccountState | null> {
  return db
    .update(creditAccounts)
    .set({ balance: sql`${creditAccounts.balance} - ${amount}`, updatedAt: sql`now()` })
    .where(
      sql`${creditAccounts.userId} = ${userId} and ${creditAccounts.balance} >= ${amount}${
        requireNothingOwed ? sql` and ${creditAccounts.owed} = 0` : sql``
      }`,
    )
    .returning(accountState)
    .then((rows) => rows[0] ?? null);
}

/** Takes back `amount`: what the balance has, the rest becomes owed (the SET expressions see the old row). */
export function clawCredits(db: DbOrTx, userId: number, amount: number): Promise<AccountState | null> {
  return db
    .update(creditAccounts)
    .set({
      balance: sql`greatest(${creditAccounts.balance} - ${amount}, 0)`,
      owed: sql`${creditAccounts.owed} + greatest(${amount} - ${creditAccounts.balance}, 0)`,
      updatedAt: sql`now()`,
    })
    .where(eq(creditAccounts.userId, userId))
    .returning(accountState)
    .then((rows) => rows[0] ?? null);
}

/** The ledger row of a movement; null when `source_ref` was already used (nothing inserted). */
export function insertLedgerEntry(
  db: DbOrTx,
  values: {
    userId: number;
    kind: CreditLedgerKind;
    amount: number;
    balanceAfter: number;
    owedAfter: number;
    sourceRef: string;
    note: string | null;
    actorId: number | null;
  },
): Promise<CreditLedgerRow | null> {
  return db
    .insert(creditLedger)
    .values(values)
    .onConflictDoNothing({ target: creditLedger.sourceRef })
    .returning()
    .then((rows) => rows[0] ?? null);
}

export function findLedgerEntryBySource(db: DbOrTx, sourceRef: string): Promise<CreditLedgerRow | null> {
  return db
    .select()
    .from(creditLedger)
    .where(eq(creditLedger.sourceRef, sourceRef))
    .then((rows) => rows[0] ?? null);
}

export function listLedger(db: DbOrTx, userId: number, limit: number): Promise<CreditLedgerRow[]> {
  return db
    .select()
    .from(creditLedger)
    .where(eq(creditLedger.userId, userId))
    .orderBy(desc(creditLedger.id))
    .limit(limit);
}

// ---- Redeem products ----

export type RedeemProductRow = typeof redeemProducts.$inferSelect;
export type RedeemProductValues = Pick<
  typeof redeemProducts.$inferInsert,
  'name' | 'description' | 'grantType' | 'grantValue' | 'costCredits' | 'active'
>;

export function listRedeemProducts(db: DbOrTx, { activeOnly }: { activeOnly: boolean }) {
  return db
    .select()
    .from(redeemProducts)
    .where(activeOnly ? eq(redeemProducts.active, true) : undefined)
    .orderBy(asc(redeemProducts.id));
}

export function findActiveRedeemProduct(db: DbOrTx, id: number) {
  return db
    .select()
    .from(redeemProducts)
    .where(and(eq(redeemProducts.id, id), eq(redeemProducts.active, true)))
    .then((rows) => rows[0] ?? null);
}

/** The active license product of a tier (grant_value in any case), the oldest first when staff made several. */
export function findActiveLicenseProduct(db: DbOrTx, tier: string) {
  return db
    .select()
    .from(redeemProducts)
    .where(
      and(
        eq(redeemProducts.active, true),
        eq(redeemProducts.grantType, 'license_level'),
        sql`upper(${redeemProducts.grantValue}) = ${tier}`,
      ),
    )
    .orderBy(asc(redeemProducts.id))
    .limit(1)
    .then((rows) => rows[0] ?? null);
}

export function insertRedeemProduct(db: DbOrTx, values: RedeemProductValues) {
  return db
    .insert(redeemProducts)
    .values(values)
    .returning()
    .then((rows) => rows[0]!);
}

export function updateRedeemProduct(db: DbOrTx, id: number, values: Partial<RedeemProductValues>) {
  return db
    .update(redeemProducts)
    .set({ ...values, updatedAt: sql`now()` })
    .where(eq(redeemProducts.id, id))
    .returning()
    .then((rows) => rows[0] ?? null);
}

/** Seeds the products by name: a product that exists keeps what staff made of it. */
export async function insertMissingRedeemProducts(db: DbOrTx, rows: RedeemProductValues[]) {
  const existing = new Set((await db.select({ name: redeemProducts.name }).from(redeemProducts)).map((r) => r.name));
  const missing = rows.filter((row) => !existing.has(row.name));
  if (missing.length > 0) await db.insert(redeemProducts).values(missing);
}

export async function insertRedemption(db: DbOrTx, values: typeof creditRedemptions.$inferInsert) {
  await db.insert(creditRedemptions).values(values);
}
