import { and, desc, eq, sql } from 'drizzle-orm';
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

export function findByOrder(db: DbOrTx, orderId: number, kind: InvoiceKind) {
  return db
    .select()
    .from(invoices)
    .where(and(eq(invoices.orderId, orderId), eq(invoices.kind, kind)))
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
