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

/**
 * One of the caller's orders in Settings → Invoices (issue 21): a paid order of the one orders table (a license
 * upgrade or a credit pack) with its invoice and credit notes, or an order of the legacy store (`legacy`: its number,
 * description and date only; no amount or document).
 */
export const MyOrderSchema = z.object({
  kind: z.enum(['upgrade', 'credit_pack', 'legacy']),
  /** The order number (`Order #id`); null only for an order without one. */
  id: z.nullable(z.int()),
  /** What was bought: 'License upgrade LITE to PRO', '10 credits', or a legacy order's description. */
  description: z.string(),
  /** The license key an upgrade was for. */
  license_key: z.nullable(z.string()),
  /** ISO 8601 date-time the order was placed. */
  created_at: z.string(),
  /** Cents before VAT, the VAT and the total; null on a legacy order. */
  subtotal: z.nullable(z.int()),
  vat_amount: z.nullable(z.int()),
  total: z.nullable(z.int()),
  /** Basis points (1900 is 19 %); null on a legacy order. */
  vat_rate_bp: z.nullable(z.int()),
  /** The buyer's verified VAT ID made it a reverse charge (no VAT). */
  reverse_charge: z.boolean(),
  currency: z.nullable(z.string()),
  /** Where the order stands now; null on a legacy order. */
  status: z.nullable(z.enum(INVOICE_ORDER_STATUSES)),
  /** Its invoice and credit notes, in issue order (each with its PDF at /invoices/:id/pdf). */
  documents: z.array(z.omit(InvoiceSummarySchema, { order_id: true, status: true })),
});
export type MyOrder = z.infer<typeof MyOrderSchema>;
export type OrderDocument = MyOrder['documents'][number];

/** Settings → Invoices: the caller's orders, newest first, each paid one with its invoice and credit notes. */
export const listMyOrders = defineContract({
  operationId: 'listMyOrders',
  method: 'GET',
  path: '/orders',
  summary: "The caller's orders with their invoices and credit notes, newest first",
  tags: ['invoices'],
  access: 'user',
  response: z.object({ orders: z.array(MyOrderSchema) }),
});
