import { and, desc, eq, gte, lt, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { auditLog } from '../../db/schema';

export type AuditRow = typeof auditLog.$inferSelect;
export type NewAuditRow = typeof auditLog.$inferInsert;

/** Appends one row (the only write this table ever takes). */
export async function insertEntry(db: DbOrTx, values: NewAuditRow): Promise<AuditRow> {
  const [row] = await db.insert(auditLog).values(values).returning();
  return row!;
}

export interface AuditFilters {
  actorType?: AuditRow['actorType'];
  actorId?: string;
  customerUserId?: number;
  action?: string;
  objectType?: string;
  objectId?: string;
  /** Only rows with an id below this one (paging newest first). */
  beforeId?: number;
  since?: Date;
  limit: number;
}

/**
 * Newest first by id (the order rows were appended in, which `at`, a transaction's start time, may not follow), so
 * `beforeId` is an exact cursor; the (customer, at) and (action, at) indexes serve the usual filters.
 */
export function listEntries(db: DbOrTx, filters: AuditFilters): Promise<AuditRow[]> {
  const conditions: SQL[] = [];
  if (filters.actorType !== undefined) conditions.push(eq(auditLog.actorType, filters.actorType));
  if (filters.actorId !== undefined) conditions.push(eq(auditLog.actorId, filters.actorId));
  if (filters.customerUserId !== undefined) conditions.push(eq(auditLog.customerUserId, filters.customerUserId));
  if (filters.action !== undefined) conditions.push(eq(auditLog.action, filters.action));
  if (filters.objectType !== undefined) conditions.push(eq(auditLog.objectType, filters.objectType));
  if (filters.objectId !== undefined) conditions.push(eq(auditLog.objectId, filters.objectId));
  if (filters.beforeId !== undefined) conditions.push(lt(auditLog.id, filters.beforeId));
  if (filters.since !== undefined) conditions.push(gte(auditLog.at, filters.since));
  return db
    .select()
    .from(auditLog)
    .where(conditions.length > 0 ? and(...conditions) : undefined)
    .orderBy(desc(auditLog.id))
    .limit(filters.limit);
}
