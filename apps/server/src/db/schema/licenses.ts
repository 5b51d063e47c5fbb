/** modules/licenses: license check-ins. */
import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  check,
  index,
  integer,
  pgTable,
  serial,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { tierEnum } from './columns';
import { licenseKeys } from './keys';

/**
 * Issue 13 (ADR 031): validation check-ins, aggregated. Each validation with a readable token is counted in the
 * check-in buffer (memory or Redis) and a flusher upserts one row per (key, domain, version, edition, covered) with the
 * count and the first and last time seen, in one statement per batch: never a write per request.
 */
export const licenseCheckins = pgTable(
  'license_checkins',
  {
    id: serial('id').primaryKey(),
    keyId: integer('key_id')
      .notNull()
      .references(() => licenseKeys.id, { onDelete: 'cascade' }),
    /** The storefront's registrable domain (the shared domain rules, as store reports normalise a domain). */
    domain: text('domain').notNull(),
    version: text('version').notNull(),
    edition: tierEnum('edition').notNull(),
    /** The key's token whitelists the domain. */
    covered: boolean('covered').notNull(),
    count: bigint('count', { mode: 'number' }).notNull(),
    firstSeenAt: timestamp('first_seen_at', { withTimezone: true }).notNull(),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    uniqueIndex('license_checkins_aggregate_unique').on(t.keyId, t.domain, t.version, t.edition, t.covered),
    // Key health: a key's latest check-ins.
    index('license_checkins_key_idx').on(t.keyId, t.lastSeenAt),
    // Sightings: uncovered domains, most recent first; and the report evidence by domain.
    index('license_checkins_uncovered_idx')
      .on(t.domain, t.lastSeenAt)
      .where(sql`not ${t.covered}`),
    check('license_checkins_count_positive', sql`${t.count} > 0`),
  ],
);
