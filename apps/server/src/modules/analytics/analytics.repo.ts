import { and, asc, eq, inArray, isNull, lt, lte, or, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { analyticsOutbox } from '../../db/schema';

export type OutboxRow = typeof analyticsOutbox.$inferSelect;
export type NewOutboxRow = Omit<typeof analyticsOutbox.$inferInsert, 'id' | 'attempts' | 'createdAt'>;

/** Writes one row; a second copy of the same (user, kind, name, unique id) is dropped. True when written. */
export async function insertItem(db: DbOrTx, values: NewOutboxRow): Promise<boolean> {
  const rows = await db
    .insert(analyticsOutbox)
    .values(values)
    .onConflictDoNothing()
    .returning({ id: analyticsOutbox.id });
  return rows.length > 0;
}

/**
 * Claims up to `limit` due rows for this worker until `leaseUntil` and counts the attempt, in one statement: the
 * rows are locked with `FOR UPDATE SKIP LOCKED`, so a concurrent worker (another process) takes other rows, and a
 * claimed row is not due again before its lease ends.
 */
export function claimDue(db: DbOrTx, now: Date, leaseUntil: Date, limit: number): Promise<OutboxRow[]> {
  const t = analyticsOutbox;
  const pending = and(isNull(t.deliveredAt), isNull(t.failedAt));
  const due = db
    .select({ id: t.id })
    .from(t)
    .where(and(pending, lte(t.nextAttemptAt, now), or(isNull(t.claimedUntil), lt(t.claimedUntil, now))))
    .orderBy(asc(t.nextAttemptAt), asc(t.id))
    .limit(limit)
    .for('update', { skipLocked: true });
  return db
    .update(t)
    .set({ claimedUntil: leaseUntil, attempts: sql`${t.attempts} + 1` })
    .where(and(inArray(t.id, due), pending))
    .returning();
}

export async function markDelivered(db: DbOrTx, id: number, at: Date): Promise<void> {
  await db
    .update(analyticsOutbox)
    .set({ deliveredAt: at, claimedUntil: null })
    .where(and(eq(analyticsOutbox.id, id), isNull(analyticsOutbox.deliveredAt)));
}

export async function markRetry(db: DbOrTx, id: number, nextAttemptAt: Date, error: string): Promise<void> {
  await db
    .update(analyticsOutbox)
    .set({ nextAttemptAt, claimedUntil: null, lastError: error })
    .where(and(eq(analyticsOutbox.id, id), isNull(analyticsOutbox.deliveredAt)));
}

export async function markFailed(db: DbOrTx, id: number, at: Date, error: string): Promise<void> {
  await db
    .update(analyticsOutbox)
    .set({ failedAt: at, claimedUntil: null, lastError: error })
    .where(and(eq(analyticsOutbox.id, id), isNull(analyticsOutbox.deliveredAt)));
}
