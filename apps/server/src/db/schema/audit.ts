/** modules/audit: the append-only audit log. */
import { sql } from 'drizzle-orm';
import { bigint, check, index, integer, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * What happened to money, orders and keys, append-only (modules/audit): a trigger refuses UPDATE and DELETE, and no
 * route edits it. The staff console of a later issue reads it by customer and by action.
 */
export const auditLog = pgTable(
  'audit_log',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
    actorType: text('actor_type').$type<AuditActorType>().notNull(),
    actorId: text('actor_id'),
    action: text('action').notNull(),
    objectType: text('object_type').notNull(),
    objectId: text('object_id').notNull(),
    customerUserId: integer('customer_user_id'),
    reason: text('reason'),
    data: jsonb('data').$type<Record<string, unknown>>().notNull().default({}),
  },
  (t) => [
    check('audit_log_actor_type', sql`${t.actorType} in ('user', 'staff', 'system', 'provider')`),
    index('audit_log_customer_at_idx').on(t.customerUserId, t.at),
    index('audit_log_action_at_idx').on(t.action, t.at),
  ],
);

export type AuditActorType = 'user' | 'staff' | 'system' | 'provider';
