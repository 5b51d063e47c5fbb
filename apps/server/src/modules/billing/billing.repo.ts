import { eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { vatChecks } from '../../db/schema';

export type VatCheckRow = typeof vatChecks.$inferSelect;

export function findVatCheck(db: DbOrTx, vatNumber: string) {
  return db
    .select()
    .from(vatChecks)
    .where(eq(vatChecks.vatNumber, vatNumber))
    .then((rows) => rows[0] ?? null);
}

/** Keeps the newest definite answer for a number. */
export async function saveVatCheck(db: DbOrTx, values: typeof vatChecks.$inferInsert) {
  await db
    .insert(vatChecks)
    .values(values)
    .onConflictDoUpdate({
      target: vatChecks.vatNumber,
      set: {
        valid: sql`excluded.valid`,
        countryCode: sql`excluded.country_code`,
        companyName: sql`excluded.company_name`,
        companyAddress: sql`excluded.company_address`,
        consultationNumber: sql`excluded.consultation_number`,
        checkedAt: sql`excluded.checked_at`,
      },
    });
}
