import type { AuditEntry as AuditEntryResponse } from '@keyport/shared/contracts/audit';
import type { Db, DbOrTx } from '../../db/client';
import type { AuditActorType } from '../../db/schema';
import type { AuthService } from '../auth/auth.service';
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
export function createAuditService(deps: { db: Db; users: Pick<AuthService, 'findByEmail' | 'emailsOf'> }) {
  const { db, users } = deps;

  /** A user id from an email or an id; null when no account has that email (the filter then matches nothing). */
  const userIdOf = async (emailOrId: string): Promise<number | null> =>
    /^\d+$/.test(emailOrId) ? Number(emailOrId) : ((await users.findByEmail(emailOrId))?.id ?? null);
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

    /**
     * GET /staff/audit-log: one page, newest first, with the people's emails. `actor` and `customer` may be emails;
     * an email no account has matches nothing. `nextCursor` is null on the last page.
     */
    async list(
      filters: Omit<repo.AuditFilters, 'actorId'> & { actor?: string; customer?: string },
    ): Promise<{ entries: AuditEntryResponse[]; nextCursor: string | null }> {
      const { actor, customer, ...rest } = filters;
      const query: repo.AuditFilters = { ...rest };
      if (actor !== undefined) {
        const actorId = actor.includes('@') ? await userIdOf(actor) : actor;
        if (actorId === null) return { entries: [], nextCursor: null };
        query.actorId = String(actorId);
      }
      if (customer !== undefined) {
        const customerUserId = await userIdOf(customer);
        if (customerUserId === null) return { entries: [], nextCursor: null };
        query.customerUserId = customerUserId;
      }
      const rows = await repo.listEntries(db, { ...query, limit: filters.limit + 1 });
      const page = rows.slice(0, filters.limit);
      const personIds = page.flatMap((row) => [
        ...(row.customerUserId === null ? [] : [row.customerUserId]),
        ...((row.actorType === 'staff' || row.actorType === 'user') && row.actorId && /^\d+$/.test(row.actorId)
          ? [Number(row.actorId)]
          : []),
      ]);
      const emails = personIds.length > 0 ? await users.emailsOf(personIds) : new Map<number, string>();
      const entries = page.map((row) => ({
        id: row.id,
        at: row.at.toISOString(),
        actor_type: row.actorType,
        actor_id: row.actorId,
        actor_email:
          (row.actorType === 'staff' || row.actorType === 'user') && row.actorId
            ? (emails.get(Number(row.actorId)) ?? null)
            : null,
        action: row.action,
        object_type: row.objectType,
        object_id: row.objectId,
        customer_user_id: row.customerUserId,
        customer_email: row.customerUserId === null ? null : (emails.get(row.customerUserId) ?? null),
        reason: row.reason,
        data: row.data,
      }));
      return { entries, nextCursor: rows.length > filters.limit ? String(page.at(-1)!.id) : null };
    },
  };
}
export type AuditService = ReturnType<typeof createAuditService>;
