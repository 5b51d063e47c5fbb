/** modules/analytics: the analytics outbox. */
import { sql } from 'drizzle-orm';
import { check, integer, jsonb, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { users } from './auth';
import { createdAt } from './columns';

/** What an analytics event or profile update carries (modules/analytics, integrations/analytics). */
export interface AnalyticsPayload {
  properties: Record<string, unknown>;
  value: number | null;
  /** Profile updates only. */
  firstName?: string | null;
  lastName?: string | null;
  phoneNumber?: string | null;
}

/**
 * Analytics events and profile updates for the provider (modules/analytics): written in the caller's transaction with
 * an `analytics.deliver` job (modules/jobs) that delivers the row after commit, with the engine's claims, retries and
 * dead letters. `email` is null for the server's own events: the job reads the account's email when it delivers.
 * One row per (user, kind, name, unique_id): a second copy of an event is dropped (and enqueues no job).
 */
export const analyticsOutbox = pgTable(
  'analytics_outbox',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    kind: text('kind').$type<'event' | 'profile'>().notNull(),
    /** The §3 event name; '' for a profile update. */
    name: text('name').notNull(),
    uniqueId: text('unique_id').notNull(),
    email: text('email'),
    payload: jsonb('payload').$type<AnalyticsPayload>().notNull(),
    occurredAt: timestamp('occurred_at', { withTimezone: true }).notNull(),
    deliveredAt: timestamp('delivered_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    check('analytics_outbox_kind', sql`${t.kind} in ('event', 'profile')`),
    uniqueIndex('analytics_outbox_unique_event').on(t.userId, t.kind, t.name, t.uniqueId),
  ],
);
