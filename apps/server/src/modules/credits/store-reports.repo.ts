import { and, asc, count, desc, eq, gt, inArray, lt, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { creditLedger, storeReportDomains, storeReports, type StoreReportStatus } from '../../db/schema';

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

/** A user's reports, newest first. */
export function listReportsOfUser(db: DbOrTx, userId: number, limit: number) {
  return db
    .select()
    .from(storeReports)
    .where(eq(storeReports.userId, userId))
    .orderBy(desc(storeReports.id))
    .limit(limit);
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

/** Each reporter's reports by status (their history). */
export async function countReportsByUser(
  db: DbOrTx,
  userIds: number[],
): Promise<Map<number, Record<StoreReportStatus, number>>> {
  const counts = new Map<number, Record<StoreReportStatus, number>>();
  if (userIds.length === 0) return counts;
  const rows = await db
    .select({ userId: storeReports.userId, status: storeReports.status, n: count() })
    .from(storeReports)
    .where(inArray(storeReports.userId, userIds))
    .groupBy(storeReports.userId, storeReports.status);
  for (const row of rows) {
    const of = counts.get(row.userId) ?? { pending: 0, approved: 0, rejected: 0 };
    of[row.status] = row.n;
    counts.set(row.userId, of);
  }
  return counts;
}

/** How many times each of these domains was reported, per reporter (the unique index: at most once per user). */
export function countReportsOfDomains(db: DbOrTx, domains: string[]) {
  if (domains.length === 0) return Promise.resolve([]);
  return db
    .select({ domain: storeReportDomains.domain, userId: storeReportDomains.userId })
    .from(storeReportDomains)
    .where(inArray(storeReportDomains.domain, domains));
}

/** Per domain, the reports naming it by status. */
export async function countReportStatusesOfDomains(
  db: DbOrTx,
  domains: string[],
): Promise<Map<string, Record<StoreReportStatus, number>>> {
  const counts = new Map<string, Record<StoreReportStatus, number>>();
  if (domains.length === 0) return counts;
  const rows = await db
    .select({ domain: storeReportDomains.domain, status: storeReports.status, n: count() })
    .from(storeReportDomains)
    .innerJoin(storeReports, eq(storeReports.id, storeReportDomains.reportId))
    .where(inArray(storeReportDomains.domain, domains))
    .groupBy(storeReportDomains.domain, storeReports.status);
  for (const row of rows) {
    const of = counts.get(row.domain) ?? { pending: 0, approved: 0, rejected: 0 };
    of[row.status] = row.n;
    counts.set(row.domain, of);
  }
  return counts;
}

/**
 * A report's credit reached the balance: its ledger grant `report:<id>` exists (written on approval; before ADR 037,
 * on submission).
 */
const credited = sql<boolean>`exists (select 1 from ${creditLedger} where ${creditLedger.sourceRef} = 'report:' || ${storeReports.id})`;

/** The credits a user's pending reports hold back (one per pending report whose credit is not in the balance). */
export function countPendingReportCredits(db: DbOrTx, userId: number): Promise<number> {
  return db
    .select({ n: count() })
    .from(storeReports)
    .where(and(eq(storeReports.userId, userId), eq(storeReports.status, 'pending'), sql`not ${credited}`))
    .then((rows) => rows[0]?.n ?? 0);
}

/**
 * A user's reports whose credit never reached the balance (pending, or rejected before approval), newest decision or
 * submission first: the lines of the customer's credit history the ledger does not hold.
 */
export function listUncreditedReports(db: DbOrTx, userId: number, limit: number) {
  return db
    .select()
    .from(storeReports)
    .where(
      and(eq(storeReports.userId, userId), inArray(storeReports.status, ['pending', 'rejected']), sql`not ${credited}`),
    )
    .orderBy(desc(sql`coalesce(${storeReports.reviewedAt}, ${storeReports.createdAt})`), desc(storeReports.id))
    .limit(limit);
}

export function findReports(db: DbOrTx, ids: number[]) {
  if (ids.length === 0) return Promise.resolve([]);
  return db.select().from(storeReports).where(inArray(storeReports.id, ids));
}

/** The source references of these reports' ledger rows (`report:<id>`, `report:<id>:clawback`) that exist. */
export async function findReportLedgerSources(db: DbOrTx, reportIds: number[]): Promise<Set<string>> {
  if (reportIds.length === 0) return new Set();
  const refs = reportIds.flatMap((id) => [`report:${id}`, `report:${id}:clawback`]);
  const rows = await db
    .select({ sourceRef: creditLedger.sourceRef })
    .from(creditLedger)
    .where(inArray(creditLedger.sourceRef, refs));
  return new Set(rows.map((row) => row.sourceRef));
}

/**
 * Decides a pending report, once: null when it does not exist or was already decided. `reviewedBy` null: approved by
 * the portal on its own evidence (ADR 037).
 */
export function decideReport(
  db: DbOrTx,
  id: number,
  decision: { status: 'approved' | 'rejected'; reviewedBy: number | null; note: string | null },
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
