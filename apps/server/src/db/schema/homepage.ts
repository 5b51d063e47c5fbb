/** modules/homepage: the updates feed. */
import { sql } from 'drizzle-orm';
import { check, integer, jsonb, pgTable, timestamp } from 'drizzle-orm/pg-core';
import type { HomepageUpdate } from '@keyport/shared/contracts/homepage';
import { users } from './auth';

/** The dashboard's updates feed (§3 "Homepage data"): one row (id 1), what customers see and the staff draft. */
export const homepageSettings = pgTable(
  'homepage_settings',
  {
    id: integer('id').primaryKey().default(1),
    published: jsonb('published').$type<HomepageUpdate[]>().notNull().default([]),
    draft: jsonb('draft').$type<HomepageUpdate[]>().notNull().default([]),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    updatedBy: integer('updated_by').references(() => users.id, { onDelete: 'set null' }),
  },
  (t) => [check('homepage_settings_single_row', sql`${t.id} = 1`)],
);
