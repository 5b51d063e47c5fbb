/** integrations/paypal (sandbox adapter): the PayPal sandbox's orders. */
import { sql } from 'drizzle-orm';
import { check, integer, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { createdAt } from './columns';
import type { SandboxDispute } from './sandbox-payments';

/**
 * The sandbox wallet's own orders (integrations/paypal/sandbox-adapter): what PayPal would keep on its side (Orders v2
 * statuses, the capture, refunds). Nothing else reads it.
 */
export const sandboxPaypalOrders = pgTable(
  'sandbox_paypal_orders',
  {
    id: text('id').primaryKey(),
    /** The `PayPal-Request-Id` of the create: the same id returns the same order. */
    requestId: text('request_id').notNull().unique(),
    status: text('status').notNull().default('CREATED'),
    amountCents: integer('amount_cents').notNull(),
    currency: text('currency').notNull(),
    description: text('description').notNull(),
    customId: text('custom_id').notNull(),
    invoiceId: text('invoice_id').notNull(),
    returnUrl: text('return_url').notNull(),
    cancelUrl: text('cancel_url').notNull(),
    captureId: text('capture_id').unique(),
    captureStatus: text('capture_status'),
    capturedCents: integer('captured_cents').notNull().default(0),
    refundedCents: integer('refunded_cents').notNull().default(0),
    /** Issue 19: the payer's dispute of the capture, if any (re-read by the webhook like a dispute at PayPal). */
    dispute: jsonb('dispute').$type<SandboxDispute>(),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check('sandbox_paypal_orders_status', sql`${t.status} in ('CREATED', 'APPROVED', 'VOIDED', 'COMPLETED')`),
    check(
      'sandbox_paypal_orders_amounts',
      sql`${t.amountCents} > 0 and ${t.refundedCents} between 0 and ${t.capturedCents}`,
    ),
  ],
);
