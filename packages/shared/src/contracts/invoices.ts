import { z } from 'zod/mini';
import { defineContract } from './define';
import { idString } from './ids';

export const INVOICE_KINDS = ['invoice', 'credit_note'] as const;
export type InvoiceKind = (typeof INVOICE_KINDS)[number];

/** Where the order behind a document stands now (a credit note says 'refunded'). */
export const INVOICE_ORDER_STATUSES = [
  'completed',
  'needs_refund',
  'review',
  'refunded',
  'disputed',
  'charged_back',
  'pending',
  'capturing',
  'superseded',
  'void',
  'expired',
] as const;

export const InvoiceSummarySchema = z.object({
  id: z.int(),
  /** '2026-000001' (invoice) or 'CN-2026-000001' (credit note). */
  number: z.string(),
  kind: z.enum(INVOICE_KINDS),
  /** ISO 8601 date-time of issue. */
  issued_at: z.string(),
  /** Cents, positive on both kinds: a credit note's total is what it takes back. */
  total: z.int(),
  currency: z.string(),
  order_id: z.int(),
  /** The order's status now. */
  status: z.enum(INVOICE_ORDER_STATUSES),
  /** The invoice a credit note cancels. */
  credited_invoice_number: z.nullable(z.string()),
});
export type InvoiceSummary = z.infer<typeof InvoiceSummarySchema>;

/** The caller's invoices and credit notes, newest first. */
export const listInvoices = defineContract({
  operationId: 'listInvoices',
  method: 'GET',
  path: '/invoices',
  summary: "The caller's invoices and credit notes, newest first",
  tags: ['invoices'],
  access: 'user',
  response: z.object({ invoices: z.array(InvoiceSummarySchema) }),
});

/** The PDF of an invoice or credit note: its buyer or staff; anyone else gets 404. */
export const getInvoicePdf = defineContract({
  operationId: 'getInvoicePdf',
  method: 'GET',
  path: '/invoices/:id/pdf',
  summary: 'An invoice or credit note as a PDF (its buyer, or staff)',
  tags: ['invoices'],
  access: 'user',
  produces: 'application/pdf',
  params: z.object({ id: idString('Invalid invoice') }),
});
