import { and, asc, desc, eq, isNull, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { invoiceCounters, invoices, type InvoiceKind } from '../../db/schema';

export type InvoiceRow = typeof invoices.$inferSelect;
export type NewInvoice = typeof invoices.$inferInsert;

/**
 * The next number of a series in a year: one statement that creates the year's counter at 1 or advances it. The
 * updated row stays locked until the caller's transaction ends, so concurrent issuers queue behind it; a rollback
 * undoes the increment, so no number is skipped.
 */
export async function nextNumber(tx: DbOrTx, series: InvoiceKind, year: number): Promise<number> {
  const [row] = await tx
    .insert(invoiceCounters)
    .values({ series, year, lastNumber: 1 })
    .onConflictDoUpdate({
      target: [invoiceCounters.series, invoiceCounters.year],
      set: { lastNumber: sql`${invoiceCounters.lastNumber} + 1` },
    })
    .returning({ lastNumber: invoiceCounters.lastNumber });
  return row!.lastNumber;
}

export async function insertInvoice(tx: DbOrTx, values: NewInvoice): Promise<InvoiceRow> {
  const [row] = await tx.insert(invoices).values(values).returning();
  return row!;
}

/** The order's latest invoice (the highest round: a won dispute issues it again after its credit note), or null. */
export function latestInvoiceOf(db: DbOrTx, orderId: number) {
  return db
    .select()
    .from(invoices)
    .where(and(eq(invoices.orderId, orderId), eq(invoices.kind, 'invoice')))
    .orderBy(desc(invoices.round))
    .limit(1)
    .then((rows) => rows[0] ?? null);
}

/** The credit note cancelling `invoiceId`, or null while it stands. */
export function creditNoteOf(db: DbOrTx, invoiceId: number) {
  return db
    .select()
    .from(invoices)
    .where(eq(invoices.creditedInvoiceId, invoiceId))
    .then((rows) => rows[0] ?? null);
}

export function findById(db: DbOrTx, id: number) {
  return db
    .select()
    .from(invoices)
    .where(eq(invoices.id, id))
    .then((rows) => rows[0] ?? null);
}

/** The user's documents, newest first. */
export function listByUser(db: DbOrTx, userId: number) {
  return db
    .select()
    .from(invoices)
    .where(eq(invoices.userId, userId))
    .orderBy(desc(invoices.issuedAt), desc(invoices.id));
}

/** Documents issued without their EUR line (the rate could not be had then), oldest first. */
export function listMissingEurLine(db: DbOrTx, limit: number) {
  return db
    .select()
    .from(invoices)
    .where(and(eq(invoices.eurLineRequired, true), isNull(invoices.eurRate)))
    .orderBy(asc(invoices.id))
    .limit(limit);
}

export interface EurLine {
  eurRate: string;
  eurRateDate: string;
  eurRateSource: string;
  vatEurCents: number;
}

/**
 * Fills a document's missing EUR line, once: the only change the immutability trigger lets through. Null when it was
 * filled meanwhile (by another process): the caller re-reads it.
 */
export async function fillEurLine(db: DbOrTx, id: number, line: EurLine): Promise<InvoiceRow | null> {
  const [row] = await db
    .update(invoices)
    .set(line)
    .where(and(eq(invoices.id, id), eq(invoices.eurLineRequired, true), isNull(invoices.eurRate)))
    .returning();
  return row ?? null;
}
