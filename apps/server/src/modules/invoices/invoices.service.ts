import type { InvoiceSummary } from '@keyport/shared/contracts/invoices';
import { keyportCreditsLabel } from '@keyport/shared/domain/credit-packs';
import { upgradePathLabel, type UpgradePath } from '@keyport/shared/domain/upgrade-paths';
import type { Db, DbOrTx } from '../../db/client';
import type { InvoiceBuyer, InvoiceKind, InvoiceSeller, UpgradeOrderStatus } from '../../db/schema';
import { notFound } from '../../http/errors';
import type { AuditService } from '../audit/audit.service';
import type { Settlement } from '../payments/payments.service';
import { renderInvoicePdf } from './invoice-pdf';
import * as repo from './invoices.repo';

/** An order (an upgrade or a credit pack) as the payments module keeps it. */
type OrderRow = Settlement['order'];

/** What a refund did to what the order delivered (the audit log records it). */
export type RefundOutcome =
  /** `tierReverted` null: the upgrade was never applied, so there was nothing to revert. */
  | { kind: 'upgrade'; tierReverted: boolean | null; reason?: string }
  /** `credits` null: never added (nothing to take back); `owedAfter` what the account owes after the clawback. */
  | { kind: 'credit_pack'; credits: number | null; owedAfter: number | null };

export const INVOICE_NOT_FOUND = 'Invoice not found.';

export interface InvoicesServiceDeps {
  db: Db;
  seller: InvoiceSeller;
  audit: Pick<AuditService, 'record'>;
  /** The orders' statuses now (the payments module owns orders). */
  orderStatuses: (orderIds: number[]) => Promise<Map<number, UpgradeOrderStatus>>;
  now?: () => Date;
}

/** The caller of a PDF route: its buyer, or staff. */
export interface Reader {
  id: number;
  role: string | null;
}

/**
 * Invoices and credit notes of paid orders (upgrades and credit packs). Both are issued inside the payment's own transaction (fulfilment,
 * refund), numbered gap-free per calendar year from a counter row, snapshot everything they show and never change.
 * The same calls write the audit log's entries about the order.
 */
export function createInvoicesService(deps: InvoicesServiceDeps) {
  const { db, seller, audit } = deps;
  const now = deps.now ?? (() => new Date());

  async function issue(
    tx: DbOrTx,
    kind: InvoiceKind,
    order: OrderRow,
    paymentDate: Date,
    credited: repo.InvoiceRow | null,
  ): Promise<repo.InvoiceRow> {
    const issuedAt = now();
    const year = issuedAt.getUTCFullYear();
    const sequence = await repo.nextNumber(tx, kind, year);
    const number = formatNumber(kind, year, sequence);
    return repo.insertInvoice(tx, {
      kind,
      year,
      sequence,
      number,
      orderId: order.id,
      userId: order.userId,
      creditedInvoiceId: credited?.id ?? null,
      issuedAt,
      paymentDate,
      seller,
      buyer: buyerOf(order),
      lineDescription: lineDescription(order),
      currency: order.currency,
      subtotalCents: order.baseAmountCents,
      vatRateBp: order.vatRateBp,
      vatCents: order.vatAmountCents,
      totalCents: order.totalAmountCents,
      reverseCharge: order.reverseCharge,
      buyerVatId: order.reverseCharge ? order.vatId : null,
      vatConsultationNumber: order.reverseCharge ? order.vatConsultationNumber : null,
      provider: order.provider,
      providerPaymentId: order.providerPaymentId,
    });
  }

  /** The credit note for the order's invoice (none when the order was never invoiced), with its audit entry. */
  async function creditNoteFor(tx: DbOrTx, order: OrderRow, date: Date): Promise<repo.InvoiceRow | null> {
    const invoice = await repo.findByOrder(tx, order.id, 'invoice');
    if (!invoice) return null; // never invoiced (the payment did not match its order): nothing to credit
    const creditNote = await issue(tx, 'credit_note', order, date, invoice);
    await audit.record(tx, {
      actor: { type: 'system' },
      action: 'credit_note.issued',
      object: { type: 'invoice', id: creditNote.id },
      customerUserId: order.userId,
      data: { number: creditNote.number, invoiceNumber: invoice.number, orderId: order.id },
    });
    return creditNote;
  }

  async function pdfOf(invoice: repo.InvoiceRow) {
    const credited = invoice.creditedInvoiceId ? await repo.findById(db, invoice.creditedInvoiceId) : null;
    return {
      pdf: await renderInvoicePdf(invoice, credited),
      filename: `keyport-${invoice.kind === 'credit_note' ? 'credit-note' : 'invoice'}-${invoice.number}.pdf`,
    };
  }

  return {
    /**
     * The money arrived and the order just completed (inside `settle`'s transaction): the invoice, numbered now,
     * and the audit entries. Exactly once per order (the caller's conditional update lets one delivery through; a
     * unique index on (order, kind) backs it).
     */
    async orderCompleted(tx: DbOrTx, order: OrderRow): Promise<repo.InvoiceRow> {
      const customer = order.userId;
      await audit.record(tx, {
        actor: { type: 'provider', id: order.provider },
        action: 'order.completed',
        object: { type: 'order', id: order.id },
        customerUserId: customer,
        data: { provider: order.provider, paymentId: order.providerPaymentId, totalCents: order.totalAmountCents },
      });
      const invoice = await issue(tx, 'invoice', order, order.paymentCompletedAt ?? now(), null);
      await audit.record(tx, {
        actor: { type: 'system' },
        action: 'invoice.issued',
        object: { type: 'invoice', id: invoice.id },
        customerUserId: customer,
        data: { number: invoice.number, orderId: order.id, totalCents: invoice.totalCents },
      });
      return invoice;
    },

    /**
     * A full refund was recorded (inside the refund's transaction): the credit note for the order's invoice, and the
     * audit entries, including whether the tier went back.
     */
    async orderRefunded(tx: DbOrTx, order: OrderRow, outcome: RefundOutcome): Promise<repo.InvoiceRow | null> {
      const customer = order.userId;
      await audit.record(tx, {
        actor: { type: 'provider', id: order.provider },
        action: 'order.refunded',
        object: { type: 'order', id: order.id },
        customerUserId: customer,
        data: { provider: order.provider, paymentId: order.providerPaymentId, refundedCents: order.totalAmountCents },
      });
      if (outcome.kind === 'credit_pack' && outcome.credits !== null) {
        await audit.record(tx, {
          actor: { type: 'system' },
          action: 'credits.clawed_back',
          object: { type: 'user', id: customer },
          customerUserId: customer,
          reason: `Order ${order.id} was refunded: its ${outcome.credits} credits were taken back.`,
          data: { orderId: order.id, credits: outcome.credits, owedAfter: outcome.owedAfter },
        });
      }
      if (outcome.kind === 'upgrade' && outcome.tierReverted !== null && order.licenseKeyId !== null) {
        await audit.record(tx, {
          actor: { type: 'system' },
          action: outcome.tierReverted ? 'upgrade.reverted' : 'upgrade.kept',
          object: { type: 'license_key', id: order.licenseKeyId },
          customerUserId: customer,
          reason: outcome.tierReverted
            ? `Order ${order.id} was refunded: ${order.toTier} back to ${order.fromTier}.`
            : (outcome.reason ?? `Order ${order.id} was refunded, but the key changed since: its tier stays.`),
          data: { orderId: order.id, from: order.toTier, to: order.fromTier },
        });
      }
      return creditNoteFor(tx, order, order.refundedAt ?? now());
    },

    /**
     * A dispute the buyer won (a chargeback, issue 19): the money went back through the bank, so the order's invoice
     * is credited like a refund's (inside the dispute's transaction). Null when the order was never invoiced.
     */
    async orderChargedBack(tx: DbOrTx, order: OrderRow): Promise<repo.InvoiceRow | null> {
      return creditNoteFor(tx, order, now());
    },

    /** The buyer disputed the payment with their bank (inside the dispute's transaction). */
    async orderDisputed(tx: DbOrTx, order: OrderRow, reason: string | null): Promise<void> {
      await audit.record(tx, {
        actor: { type: 'provider', id: order.provider },
        action: 'order.disputed',
        object: { type: 'order', id: order.id },
        customerUserId: order.userId,
        reason,
        data: { provider: order.provider, paymentId: order.providerPaymentId, totalCents: order.totalAmountCents },
      });
    },

    /** GET /invoices: the caller's invoices and credit notes, newest first. */
    async list(userId: number): Promise<InvoiceSummary[]> {
      const rows = await repo.listByUser(db, userId);
      const statuses = await deps.orderStatuses([...new Set(rows.map((row) => row.orderId))]);
      const numbers = new Map(rows.map((row) => [row.id, row.number]));
      return rows.map((row) => ({
        id: row.id,
        number: row.number,
        kind: row.kind,
        issued_at: row.issuedAt.toISOString(),
        total: row.totalCents,
        currency: row.currency,
        order_id: row.orderId,
        status: statuses.get(row.orderId) ?? 'completed',
        credited_invoice_number: row.creditedInvoiceId ? (numbers.get(row.creditedInvoiceId) ?? null) : null,
      }));
    },

    /** GET /invoices/:id/pdf: the buyer's or, for staff, anyone's; otherwise 404 (never says it exists). */
    async pdf(reader: Reader, invoiceId: number) {
      const invoice = await repo.findById(db, invoiceId);
      if (!invoice || (invoice.userId !== reader.id && reader.role !== 'staff')) {
        throw notFound(INVOICE_NOT_FOUND, 'invoice_not_found');
      }
      return pdfOf(invoice);
    },

    /** The invoice of an order the caller already proved is theirs (the receipt route); 404 when never invoiced. */
    async pdfForOrder(orderId: number) {
      const invoice = await repo.findByOrder(db, orderId, 'invoice');
      if (!invoice) throw notFound('This order has no invoice.', 'invoice_not_found');
      return pdfOf(invoice);
    },
  };
}
export type InvoicesService = ReturnType<typeof createInvoicesService>;

/** The invoice line: 'License upgrade LITE → REGULAR, license key …' or '12 Keyport credits'. */
function lineDescription(order: OrderRow): string {
  if (order.kind === 'credit_pack') return keyportCreditsLabel(order.credits ?? 0);
  return `License upgrade ${upgradePathLabel(order.path as UpgradePath)}, license key ${order.licenseKey}`;
}

/** '2026-000001' for invoices, 'CN-2026-000001' for credit notes. */
export function formatNumber(kind: InvoiceKind, year: number, sequence: number): string {
  return `${kind === 'credit_note' ? 'CN-' : ''}${year}-${String(sequence).padStart(6, '0')}`;
}

function buyerOf(order: OrderRow): InvoiceBuyer {
  const { billing } = order;
  const { address } = billing;
  return {
    name: billing.name,
    companyName: billing.company_name,
    email: billing.email,
    address: [
      address.line1,
      address.line2,
      [address.postal_code, address.city, address.state].filter(Boolean).join(' '),
      address.country,
    ].filter((part): part is string => Boolean(part)),
    country: address.country,
    isBusiness: billing.is_business,
    vatId: order.vatId,
  };
}
