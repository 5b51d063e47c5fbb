import { and, asc, eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { creditPacks } from '../../db/schema';

export type CreditPackRow = typeof creditPacks.$inferSelect;
export type CreditPackValues = Pick<typeof creditPacks.$inferInsert, 'name' | 'credits' | 'amountCents'> & {
  providerPriceId: string | null;
  active?: boolean;
};

/** Every pack, cheapest first (staff see retired ones too). */
export function listPacks(db: DbOrTx, options: { activeOnly: boolean }) {
  return db
    .select()
    .from(creditPacks)
    .where(options.activeOnly ? eq(creditPacks.active, true) : undefined)
    .orderBy(asc(creditPacks.amountCents), asc(creditPacks.id));
}

export function findActivePack(db: DbOrTx, packId: number) {
  return db
    .select()
    .from(creditPacks)
    .where(and(eq(creditPacks.id, packId), eq(creditPacks.active, true)))
    .then((rows) => rows[0] ?? null);
}

export function insertPack(db: DbOrTx, values: CreditPackValues) {
  return db
    .insert(creditPacks)
    .values(values)
    .returning()
    .then((rows) => rows[0]!);
}

/** Changes a pack; null when there is none. Orders already quoted keep their own amounts and credits. */
export function updatePack(db: DbOrTx, packId: number, values: CreditPackValues) {
  return db
    .update(creditPacks)
    .set({ ...values, active: values.active ?? true, updatedAt: sql`now()` })
    .where(eq(creditPacks.id, packId))
    .returning()
    .then((rows) => rows[0] ?? null);
}

/**
 * Puts the default packs into an empty catalogue, once: the transaction-scoped advisory lock makes two servers
 * starting together on one database seed it once, and a catalogue staff already changed (or emptied by retiring
 * every pack: retired packs stay rows) is left alone.
 */
export async function seedPacksIfEmpty(db: DbOrTx, packs: CreditPackValues[]): Promise<number> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext('keyport:credit_packs:seed'))`);
    const [existing] = await tx.select({ id: creditPacks.id }).from(creditPacks).limit(1);
    if (existing || packs.length === 0) return 0;
    const inserted = await tx.insert(creditPacks).values(packs).returning({ id: creditPacks.id });
    return inserted.length;
  });
}
