/** integrations/email: the email outbox. */
import { pgTable, serial, text, timestamp } from 'drizzle-orm/pg-core';
import { createdAt } from './columns';

/**
 * Every email the portal sends, written in the caller's transaction (integrations/email/outbox.ts). A `email.send`
 * job (modules/jobs) delivers it after commit: claimed by one process, retried with backoff, dead-lettered for staff.
 * `sent_at` is set once the SMTP server (or the log adapter) took it.
 */
export const emailOutbox = pgTable('email_outbox', {
  id: serial('id').primaryKey(),
  to: text('to').notNull(),
  subject: text('subject').notNull(),
  body: text('body').notNull(),
  sentAt: timestamp('sent_at', { withTimezone: true }),
  createdAt: createdAt(),
});
