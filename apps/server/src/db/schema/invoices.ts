/** modules/invoices: invoices, credit notes and their counters. */
import { sql } from 'drizzle-orm';
import {
  type AnyPgColumn,
  boolean,
  check,
  date,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  serial,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { users } from './auth';
import { orders } from './payments';

/**
 * The last number given per document series and calendar year (modules/invoices): advanced with one conditional
 * `INSERT … ON CONFLICT DO UPDATE … RETURNING` inside the fulfilment or refund transaction. The row lock serialises
 * issuers; a rolled-back transaction gives its number back, so the series has no gaps.
 */
export const invoiceCounters = pgTable(
  'invoice_counters',
  {
    series: text('series').$type<InvoiceKind>().notNull(),
    year: integer('year').notNull(),
    lastNumber: integer('last_number').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.series, t.year] }),
    check('invoice_counters_series', sql`${t.series} in ('invoice', 'credit_note')`),
    check('invoice_counters_positive', sql`${t.lastNumber} > 0`),
  ],
);

/**
 * Invoices and credit notes (modules/invoices), immutable once issued (a trigger refuses UPDATE and DELETE). Every
 * figure and party is a snapshot: the PDF is rendered from this row, never from the order.
 */
export const invoices = pgTable(
  'invoices',
  {
    id: serial('id').primaryKey(),
    kind: text('kind').$type<InvoiceKind>().notNull(),
    year: integer('year').notNull(),
    sequence: integer('sequence').notNull(),
    /** '2026-000001' for an invoice, 'CN-2026-000001' for a credit note. */
    number: text('number').notNull(),
    orderId: integer('order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'restrict' }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'restrict' }),
    /**
     * Which invoice of its order a document belongs to (ADR 035): 1 for the order's first invoice and the credit note
     * that cancels it; 2 for the invoice issued again when a dispute is won after its funds were withdrawn (the first
     * was credited at the withdrawal), and that one's credit note; and so on. A credit note has its invoice's round.
     */
    round: integer('round').notNull().default(1),
    /** The invoice a credit note cancels; null on an invoice. */
    creditedInvoiceId: integer('credited_invoice_id').references((): AnyPgColumn => invoices.id, {
      onDelete: 'restrict',
    }),
    issuedAt: timestamp('issued_at', { withTimezone: true }).notNull(),
    /** When the money arrived (invoice) or went back (credit note). */
    paymentDate: timestamp('payment_date', { withTimezone: true }).notNull(),
    seller: jsonb('seller').$type<InvoiceSeller>().notNull(),
    buyer: jsonb('buyer').$type<InvoiceBuyer>().notNull(),
    lineDescription: text('line_description').notNull(),
    currency: text('currency').notNull(),
    /** Positive on both kinds: a credit note's amounts are what it takes back. */
    subtotalCents: integer('subtotal_cents').notNull(),
    vatRateBp: integer('vat_rate_bp').notNull(),
    vatCents: integer('vat_cents').notNull(),
    totalCents: integer('total_cents').notNull(),
    reverseCharge: boolean('reverse_charge').notNull(),
    buyerVatId: text('buyer_vat_id'),
    vatConsultationNumber: text('vat_consultation_number'),
    provider: text('provider').notNull(),
    providerPaymentId: text('provider_payment_id'),
    /**
     * An EU buyer's document shows its VAT in EUR too (VAT directive art. 230; issue 19, ADR 036): the ECB reference
     * rate of its date (currency units per euro, as published), that rate's own date and its source, and the VAT in
     * euro cents. Filled when issued, or once later by the invoices module when the rate could not be had then (the
     * trigger allows exactly that change); until then its PDF is not served.
     */
    eurLineRequired: boolean('eur_line_required').notNull().default(false),
    eurRate: text('eur_rate'),
    eurRateDate: date('eur_rate_date', { mode: 'string' }),
    eurRateSource: text('eur_rate_source'),
    vatEurCents: integer('vat_eur_cents'),
  },
  (t) => [
    check(
      'invoices_eur_line_complete',
      sql`(${t.eurRate} is null) = (${t.eurRateDate} is null) and (${t.eurRate} is null) = (${t.eurRateSource} is null) and (${t.eurRate} is null) = (${t.vatEurCents} is null)`,
    ),
    check('invoices_eur_rate_format', sql`${t.eurRate} is null or ${t.eurRate} ~ '^[0-9]{1,9}([.][0-9]{1,9})?$'`),
    check('invoices_vat_eur_positive', sql`${t.vatEurCents} is null or ${t.vatEurCents} >= 0`),
    index('invoices_eur_line_pending_idx')
      .on(t.id)
      .where(sql`${t.eurLineRequired} and ${t.eurRate} is null`),
    check('invoices_kind', sql`${t.kind} in ('invoice', 'credit_note')`),
    check('invoices_total', sql`${t.totalCents} = ${t.subtotalCents} + ${t.vatCents}`),
    check('invoices_amounts', sql`${t.subtotalCents} > 0 and ${t.vatCents} >= 0`),
    check('invoices_sequence_positive', sql`${t.sequence} > 0`),
    check('invoices_credit_note_refers', sql`(${t.kind} = 'credit_note') = (${t.creditedInvoiceId} is not null)`),
    check('invoices_reverse_charge_evidence', sql`not ${t.reverseCharge} or ${t.buyerVatId} is not null`),
    uniqueIndex('invoices_kind_year_sequence_unique').on(t.kind, t.year, t.sequence),
    uniqueIndex('invoices_number_unique').on(t.number),
    check('invoices_round_positive', sql`${t.round} > 0`),
    // One invoice and one credit note per order and round, and one credit note per invoice: a replayed or raced event
    // cannot issue a second document (ADR 035).
    uniqueIndex('invoices_one_per_order_kind_and_round').on(t.orderId, t.kind, t.round),
    uniqueIndex('invoices_one_credit_note_per_invoice').on(t.creditedInvoiceId),
    index('invoices_user_idx').on(t.userId, t.issuedAt),
  ],
);

export type InvoiceKind = 'invoice' | 'credit_note';

export interface InvoiceSeller {
  name: string;
  address: string[];
  vatId: string | null;
  email: string | null;
  /** ISO code (SELLER_COUNTRY); absent on documents issued before issue 19. */
  country?: string | null;
}

export interface InvoiceBuyer {
  name: string;
  companyName: string | null;
  email: string;
  /**
   * The address lines as printed: street lines, 'postal code city', state. Documents issued before issue 19 also end
   * with the country code here (and have no `countryName`).
   */
  address: string[];
  country: string;
  /** The country's English name as printed (issue 19). */
  countryName?: string;
  isBusiness: boolean;
  vatId: string | null;
}
