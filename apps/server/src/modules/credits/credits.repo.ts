import { and, asc, count, desc, eq, gt, inArray, lt, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import {
  creditAccounts,
  creditLedger,
  creditRedemptions,
  redeemProducts,
  storeReportDomains,
  storeReports,
  type CreditLedgerKind,
  type StoreReportStatus,
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

// ---- Store reports ----

export type StoreReportRow = typeof storeReports.$inferSelect;
export type StoreReportDomainRow = typeof storeReportDomains.$inferSelect;

/** Which of these domains the user reported before. */
export async function findReportedDomains(db: DbOrTx, userId: number, domains: string[]): Promise<Set<string>> {
  if (domains.length === 0) return new Set();
  const rows = await db
    .select({ domain: storeReportDomains.domain })
    .from(storeReportDomains)
    .where(and(eq(storeReportDomains.userId, userId), inArray(storeReportDomains.domain, domains)));
  return new Set(rows.map((row) => row.domain));
}

export function countRejectedReports(db: DbOrTx, userId: number): Promise<number> {
  return db
    .select({ n: count() })
    .from(storeReports)
    .where(and(eq(storeReports.userId, userId), eq(storeReports.status, 'rejected')))
    .then((rows) => rows[0]?.n ?? 0);
}

export function insertReport(db: DbOrTx, userId: number) {
  return db
    .insert(storeReports)
    .values({ userId })
    .returning()
    .then((rows) => rows[0]!);
}

/** The report's domains; the unique (user_id, domain) index refuses a store the user already reported (23505). */
export async function insertReportDomains(
  db: DbOrTx,
  reportId: number,
  userId: number,
  rows: { submitted: string; domain: string }[],
) {
  await db.insert(storeReportDomains).values(rows.map((row, position) => ({ reportId, userId, position, ...row })));
}

/**
 * Reports for the staff queue. With a status: pending oldest first (after `afterId`), decided ones newest first
 * (before `afterId`). Without: pending first (oldest first), then the rest newest first, `offset` rows in.
 */
export function listReports(
  db: DbOrTx,
  query: { status: StoreReportStatus | null; afterId: number | null; offset: number; limit: number },
) {
  const base = db.select().from(storeReports);
  if (query.status === 'pending') {
    return base
      .where(
        and(
          eq(storeReports.status, 'pending'),
          query.afterId === null ? undefined : gt(storeReports.id, query.afterId),
        ),
      )
      .orderBy(asc(storeReports.id))
      .limit(query.limit);
  }
  if (query.status) {
    return base
      .where(
        and(
          eq(storeReports.status, query.status),
          query.afterId === null ? undefined : lt(storeReports.id, query.afterId),
        ),
      )
      .orderBy(desc(storeReports.id))
      .limit(query.limit);
  }
  return base
    .orderBy(
      sql`(${storeReports.status} <> 'pending')`,
      sql`case when ${storeReports.status} = 'pending' then ${storeReports.id} else -${storeReports.id} end`,
    )
    .limit(query.limit)
    .offset(query.offset);
}

export function findReport(db: DbOrTx, id: number) {
  return db
    .select()
    .from(storeReports)
    .where(eq(storeReports.id, id))
    .then((rows) => rows[0] ?? null);
}

export function listReportDomains(db: DbOrTx, reportIds: number[]) {
  if (reportIds.length === 0) return Promise.resolve([]);
  return db
    .select()
    .from(storeReportDomains)
    .where(inArray(storeReportDomains.reportId, reportIds))
    .orderBy(asc(storeReportDomains.reportId), asc(storeReportDomains.position));
}

/** Rejected-report counts of these reporters. */
export async function countRejectedByUser(db: DbOrTx, userIds: number[]): Promise<Map<number, number>> {
  if (userIds.length === 0) return new Map();
  const rows = await db
    .select({ userId: storeReports.userId, n: count() })
    .from(storeReports)
    .where(and(inArray(storeReports.userId, userIds), eq(storeReports.status, 'rejected')))
    .groupBy(storeReports.userId);
  return new Map(rows.map((row) => [row.userId, row.n]));
}

/** Decides a pending report, once: null when it does not exist or was already decided. */
export function decideReport(
  db: DbOrTx,
  id: number,
  decision: { status: 'approved' | 'rejected'; reviewedBy: number; note: string | null },
) {
  return db
    .update(storeReports)
    .set({
      status: decision.status,
      reviewedBy: decision.reviewedBy,
      reviewNote: decision.note,
      reviewedAt: sql`now()`,
    })
    .where(and(eq(storeReports.id, id), eq(storeReports.status, 'pending')))
    .returning()
    .then((rows) => rows[0] ?? null);
}
