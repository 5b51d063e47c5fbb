/** integrations/analytics (sandbox adapter): what the sandbox delivered. */
import { sql } from 'drizzle-orm';
import {
  check,
  doublePrecision,
  index,
  jsonb,
  pgTable,
  serial,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';

/**
 * What the sandbox analytics adapter received (integrations/analytics/sandbox-adapter): what Klaviyo would keep. An
 * event is kept once per (email, name, unique_id), as Klaviyo dedupes on `unique_id`. Staff read it.
 */
export const analyticsSandboxDeliveries = pgTable(
  'analytics_sandbox_deliveries',
  {
    id: serial('id').primaryKey(),
    kind: text('kind').$type<'event' | 'profile'>().notNull(),
    email: text('email').notNull(),
    name: text('name'),
    uniqueId: text('unique_id'),
    properties: jsonb('properties').$type<Record<string, unknown>>().notNull(),
    value: doublePrecision('value'),
    occurredAt: timestamp('occurred_at', { withTimezone: true }).notNull(),
    deliveredAt: timestamp('delivered_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check('analytics_sandbox_deliveries_kind', sql`${t.kind} in ('event', 'profile')`),
    uniqueIndex('analytics_sandbox_deliveries_unique_event').on(t.email, t.name, t.uniqueId),
    index('analytics_sandbox_deliveries_newest_idx').on(t.deliveredAt, t.id),
  ],
);

// ——— Theme-file updates (issue 10). Owner: modules/theme-file-updates. ———
