import { asc, eq } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { vatRates } from '../../db/schema';

export type VatRateRow = typeof vatRates.$inferSelect;

/** The rates staff added, in the order they were added (one country's, or all). */
export function listRates(db: DbOrTx, country?: string): Promise<VatRateRow[]> {
  const query = db.select().from(vatRates);
  return (country === undefined ? query : query.where(eq(vatRates.country, country))).orderBy(asc(vatRates.id));
}

export async function insertRate(tx: DbOrTx, values: typeof vatRates.$inferInsert): Promise<VatRateRow> {
  const [row] = await tx.insert(vatRates).values(values).returning();
  return row!;
}
