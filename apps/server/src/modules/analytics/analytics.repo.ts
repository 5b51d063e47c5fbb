import { and, eq, isNull } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { analyticsOutbox } from '../../db/schema';

export type OutboxRow = typeof analyticsOutbox.$inferSelect;
export type NewOutboxRow = Omit<typeof analyticsOutbox.$inferInsert, 'id' | 'createdAt' | 'deliveredAt'>;

/** Writes one row; a second copy of the same (user, kind, name, unique id) is dropped. Its id when written. */
export async function insertItem(db: DbOrTx, values: NewOutboxRow): Promise<number | null> {
  const [row] = await db
    .insert(analyticsOutbox)
    .values(values)
    .onConflictDoNothing()
    .returning({ id: analyticsOutbox.id });
  return row?.id ?? null;
}

export async function findItem(db: DbOrTx, id: number): Promise<OutboxRow | null> {
  const [row] = await db.select().from(analyticsOutbox).where(eq(analyticsOutbox.id, id));
  return row ?? null;
}

export async function markDelivered(db: DbOrTx, id: number, at: Date): Promise<void> {
  await db
    .update(analyticsOutbox)
    .set({ deliveredAt: at })
    .where(and(eq(analyticsOutbox.id, id), isNull(analyticsOutbox.deliveredAt)));
}
