/** modules/connect: the stores a user connected. */
import { integer, pgTable, serial, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { users } from './auth';
import { createdAt } from './columns';

export const userStores = pgTable(
  'user_stores',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    myshopifyDomain: text('myshopify_domain').notNull(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('user_stores_user_domain_unique').on(t.userId, t.myshopifyDomain)],
);
