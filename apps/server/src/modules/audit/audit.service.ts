import type { AuditEntry as AuditEntryResponse } from '@keyport/shared/contracts/audit';
import type { Db, DbOrTx } from '../../db/client';
import type { AuditActorType } from '../../db/schema';
import * as repo from './audit.repo';

/** What happened, said once, inside the transaction that made it happen. */
export interface AuditEntry {
  actor: { type: AuditActorType; id?: string | number | null };
  /** e.g. 'order.completed', 'order.refunded', 'order.disputed', 'invoice.issued', 'credit_note.issued'. */
  action: string;
  object: { type: string; id: string | number };
  customerUserId?: number | null;
  reason?: string | null;
  data?: Record<string, unknown>;
}

/**
 * The audit log: append-only. `record` runs inside the caller's transaction, so an entry exists exactly when what it
 * describes was committed. Nothing here (or anywhere) updates or deletes a row; the database refuses it too.
 */
export function createAuditService(deps: { db: Db }) {
  const { db } = deps;
  return {
    async record(tx: DbOrTx, entry: AuditEntry): Promise<void> {
      await repo.insertEntry(tx, {
        actorType: entry.actor.type,
        actorId: entry.actor.id === undefined || entry.actor.id === null ? null : String(entry.actor.id),
        action: entry.action,
        objectType: entry.object.type,
        objectId: String(entry.object.id),
        customerUserId: entry.customerUserId ?? null,
        reason: entry.reason ?? null,
        data: entry.data ?? {},
      });
    },

    /** GET /staff/audit-log: newest first, with simple filters. */
    async list(filters: repo.AuditFilters): Promise<AuditEntryResponse[]> {
      const rows = await repo.listEntries(db, filters);
      return rows.map((row) => ({
        id: row.id,
        at: row.at.toISOString(),
        actor_type: row.actorType,
        actor_id: row.actorId,
        action: row.action,
        object_type: row.objectType,
        object_id: row.objectId,
        customer_user_id: row.customerUserId,
        reason: row.reason,
        data: row.data,
      }));
    },
  };
}
export type AuditService = ReturnType<typeof createAuditService>;
