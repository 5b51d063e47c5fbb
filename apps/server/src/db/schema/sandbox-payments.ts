/** integrations/payments (sandbox adapter): the card sandbox's payments. */
import { integer, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { createdAt } from './columns';

/**
 * The sandbox payment provider's own payments (integrations/payments/sandbox-adapter): what Stripe would keep on its
 * side. Nothing else reads it.
 */
export const sandboxPayments = pgTable('sandbox_payments', {
  id: text('id').primaryKey(),
  clientSecret: text('client_secret').notNull(),
  amountCents: integer('amount_cents').notNull(),
  currency: text('currency').notNull(),
  status: text('status').notNull(),
  description: text('description').notNull(),
  metadata: jsonb('metadata').$type<Record<string, string>>().notNull(),
  receiptEmail: text('receipt_email'),
  idempotencyKey: text('idempotency_key').notNull().unique(),
  lastError: text('last_error'),
  refundedCents: integer('refunded_cents').notNull().default(0),
  /** Issue 19: the card holder's dispute of the payment, if any (re-read by the webhook like a dispute at Stripe). */
  dispute: jsonb('dispute').$type<SandboxDispute>(),
  createdAt: createdAt(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/** A sandbox provider's stand-in dispute of a payment (what Stripe or PayPal keep on their side). */
export interface SandboxDispute {
  id: string;
  status: 'open' | 'won' | 'lost';
  /** The disputed amount has been taken from the seller (Stripe withdraws it when the dispute opens). */
  fundsWithdrawn: boolean;
  reason: string;
}
