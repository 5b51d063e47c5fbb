import type { FastifyBaseLogger } from 'fastify';
import type { InvoiceSummary } from '@keyport/shared/contracts/invoices';
import { countryName } from '@keyport/shared/domain/countries';
import { keyportCreditsLabel } from '@keyport/shared/domain/credit-packs';
import { upgradePathLabel, type UpgradePath } from '@keyport/shared/domain/upgrade-paths';
import type { Db, DbOrTx } from '../../db/client';
import type { InvoiceBuyer, InvoiceKind, InvoiceSeller, orders } from '../../db/schema';
import { AppError, notFound } from '../../http/errors';
import {
  ExchangeRateUnavailableError,
  type EurReferenceRate,
  type ExchangeRates,
} from '../../integrations/exchange-rates/port';
import type { Jobs } from '../jobs/jobs.service';
import type { AuditService } from '../audit/audit.service';
import { needsEurLine, toEurCents } from './eur-line';
import { renderInvoicePdf } from './invoice-pdf';
import * as repo from './invoices.repo';

/**
 * An order (an upgrade or a credit pack) as the payments module keeps it: its table's row type, imported as a type
 * from the schema (read only; the payments module passes it in). Not from payments.service, which imports this
 * service's type: that was an import circle (issue 21).
 */
type OrderRow = typeof orders.$inferSelect;

/** What a refund did to what the order delivered (the audit log records it). */
export type RefundOutcome =
  /** `tierReverted` null: the upgrade was never applied, so there was nothing to revert. */
  | { kind: 'upgrade'; tierReverted: boolean | null; reason?: string }
  /** `credits` null: never added (nothing to take back); `owedAfter` what the account owes after the clawback. */
  | { kind: 'credit_pack'; credits: number | null; owedAfter: number | null };

export const INVOICE_NOT_FOUND = 'Invoice not found.';
export const INVOICE_INCOMPLETE =
  'This invoice is not complete yet: the ECB exchange rate for its VAT in EUR could not be fetched. Please try again in a few minutes.';

/** How often documents issued without their EUR line are completed (a recurring job, `scheduleEurLineCompletion`). */
export const EUR_LINE_RETRY_MS = 10 * 60_000;
export const COMPLETE_EUR_LINES = 'invoices.complete-eur-lines';

/** Registers the completion of missing EUR lines as a job of the engine (ADR 038), every EUR_LINE_RETRY_MS. */
export function scheduleEurLineCompletion(
  jobs: Pick<Jobs, 'register' | 'schedule'>,
  invoices: Pick<InvoicesService, 'completeMissingEurLines'>,
): void {
  jobs.register({
    kind: COMPLETE_EUR_LINES,
    what: 'VAT in EUR completion',
    maxAttempts: 3,
    backoff: { baseMs: 60_000, maxMs: 5 * 60_000 },
    leaseMs: 5 * 60_000,
    describe: () => 'Complete the VAT in EUR of invoices issued while the ECB did not answer',
    async handler() {
      await invoices.completeMissingEurLines();
    },
  });
  jobs.schedule('complete-eur-lines', COMPLETE_EUR_LINES, EUR_LINE_RETRY_MS);
}

export interface InvoicesServiceDeps {
  db: Db;
  seller: InvoiceSeller;
  audit: Pick<AuditService, 'record'>;
  /** The euro reference rates of EU invoices' VAT in EUR (ECB, or the sandbox's fixed rates). */
  exchangeRates: ExchangeRates;
  log: Pick<FastifyBaseLogger, 'warn' | 'error' | 'info'>;
  now?: () => Date;
}

/** A document of the user's as GET /invoices lists it, less where its order stands now (the orders' module adds it). */
export type UserDocument = Omit<InvoiceSummary, 'status'>;

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
  const { db, seller, audit, log } = deps;
  const now = deps.now ?? (() => new Date());

  /**
   * The EUR line of a document: an invoice's from the rate fetched for it (null when the rate could not be had: the
   * line is filled later), a credit note's the same as its invoice's (a correction converts at the original rate).
   */
  function eurLineOf(
    content: Content,
    eurRate: EurReferenceRate | null,
    credited: repo.InvoiceRow | null,
  ): repo.EurLine | null {
    if (credited) {
      return credited.eurRate && credited.eurRateDate && credited.eurRateSource
        ? {
            eurRate: credited.eurRate,
            eurRateDate: credited.eurRateDate,
            eurRateSource: credited.eurRateSource,
            vatEurCents: toEurCents(content.vatCents, credited.eurRate),
          }
        : null;
    }
    if (!eurRate || eurRate.currency !== content.currency.toUpperCase()) return null;
    return {
      eurRate: eurRate.perEur,
      eurRateDate: eurRate.date,
      eurRateSource: eurRate.source,
      vatEurCents: toEurCents(content.vatCents, eurRate.perEur),
    };
  }

  /** What a document of `order` shows, from the order as it was paid. */
  function contentOf(order: OrderRow): Content {
    return {
      orderId: order.id,
      userId: order.userId,
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
      eurLineRequired: needsEurLine(order.billing.address.country, order.currency),
    };
  }

  /** Issues a document of `round` with the next number of its series, dated now. */
  async function issue(
    tx: DbOrTx,
    kind: InvoiceKind,
    content: Content,
    round: number,
    paymentDate: Date,
    credited: repo.InvoiceRow | null,
    eurRate: EurReferenceRate | null = null,
  ): Promise<repo.InvoiceRow> {
    const issuedAt = now();
    const year = issuedAt.getUTCFullYear();
    const sequence = await repo.nextNumber(tx, kind, year);
    const number = formatNumber(kind, year, sequence);
    const eurLine = content.eurLineRequired ? eurLineOf(content, eurRate, credited) : null;
    if (content.eurLineRequired && !eurLine) {
      log.error(
        { orderId: content.orderId, kind },
        'issued without its VAT in EUR (no exchange rate now): completed when the rate can be had; its PDF waits',
      );
    }
    return repo.insertInvoice(tx, {
      ...content,
      kind,
      year,
      sequence,
      number,
      round,
      creditedInvoiceId: credited?.id ?? null,
      issuedAt,
      paymentDate,
      ...eurLine,
    });
  }

  /**
   * The credit note for the order's latest invoice, with its audit entry; null when the order was never invoiced or
   * that invoice is credited already (a lost dispute after its funds were withdrawn: credited at the withdrawal).
   */
  async function creditNoteFor(tx: DbOrTx, order: OrderRow, date: Date): Promise<repo.InvoiceRow | null> {
    const invoice = await repo.latestInvoiceOf(tx, order.id);
    if (!invoice) return null; // never invoiced (the payment did not match its order): nothing to credit
    if (await repo.creditNoteOf(tx, invoice.id)) return null; // credited already
    // A credit note cancels exactly its invoice: the same parties, line and amounts.
    const creditNote = await issue(tx, 'credit_note', contentOfInvoice(invoice), invoice.round, date, invoice);
    await audit.record(tx, {
      actor: { type: 'system' },
      action: 'credit_note.issued',
      object: { type: 'invoice', id: creditNote.id },
      customerUserId: order.userId,
      data: { number: creditNote.number, invoiceNumber: invoice.number, orderId: order.id },
    });
    return creditNote;
  }

  /** The rate in force at `at` for `currency`, or null (logged) when it cannot be had. Never inside a transaction. */
  async function rateAt(currency: string, at: Date): Promise<EurReferenceRate | null> {
    try {
      return await deps.exchangeRates.eurRateAt(currency, at);
    } catch (error) {
      if (!(error instanceof ExchangeRateUnavailableError)) throw error;
      log.warn({ currency, reason: error.message }, 'no euro reference rate for now');
      return null;
    }
  }

  /**
   * Fills the EUR line of a document issued without it: an invoice at the rate in force when it was issued, a credit
   * note at its invoice's (completing the invoice first). Returns the document as it is now.
   */
  async function completeEurLine(document: repo.InvoiceRow): Promise<repo.InvoiceRow> {
    if (!document.eurLineRequired || document.eurRate) return document;
    let line: repo.EurLine | null = null;
    if (document.creditedInvoiceId) {
      const invoice = await repo.findById(db, document.creditedInvoiceId);
      const completed = invoice ? await completeEurLine(invoice) : null;
      if (completed?.eurRate) {
        line = {
          eurRate: completed.eurRate,
          eurRateDate: completed.eurRateDate!,
          eurRateSource: completed.eurRateSource!,
          vatEurCents: toEurCents(document.vatCents, completed.eurRate),
        };
      }
    } else {
      const rate = await rateAt(document.currency, document.issuedAt);
      if (rate && rate.currency === document.currency.toUpperCase()) {
        line = {
          eurRate: rate.perEur,
          eurRateDate: rate.date,
          eurRateSource: rate.source,
          vatEurCents: toEurCents(document.vatCents, rate.perEur),
        };
      }
    }
    if (!line) return document;
    const filled = await repo.fillEurLine(db, document.id, line);
    if (filled) log.info({ invoiceId: document.id, number: document.number }, 'VAT in EUR completed');
    return filled ?? (await repo.findById(db, document.id)) ?? document;
  }

  /** Completes up to `limit` documents still missing their EUR line; answers how many are complete now. */
  async function completeMissingEurLines(limit = 50): Promise<number> {
    let completed = 0;
    for (const document of await repo.listMissingEurLine(db, limit)) {
      if ((await completeEurLine(document)).eurRate) completed++;
    }
    return completed;
  }

  /** The PDF of a document; one that still lacks its EUR line is completed first, or not served (503). */
  async function pdfOf(document: repo.InvoiceRow) {
    const invoice = await completeEurLine(document);
    if (invoice.eurLineRequired && !invoice.eurRate) {
      throw new AppError(503, INVOICE_INCOMPLETE, 'invoice_incomplete', { 'retry-after': '300' });
    }
    const credited = invoice.creditedInvoiceId ? await repo.findById(db, invoice.creditedInvoiceId) : null;
    return {
      pdf: await renderInvoicePdf(invoice, credited),
      filename: `keyport-${invoice.kind === 'credit_note' ? 'credit-note' : 'invoice'}-${invoice.number}.pdf`,
    };
  }

  return {
    /**
     * Before a payment's settlement transaction (no network call inside it): the euro reference rate its invoice
     * will show, for an order in `currency`; null for euro orders and when the rate cannot be had now (the invoice
     * is then completed later, ADR 036).
     */
    async rateForSettlement(currency: string): Promise<EurReferenceRate | null> {
      return currency.toLowerCase() === 'eur' ? null : rateAt(currency, now());
    },

    /**
     * The money arrived and the order just completed (inside `settle`'s transaction): the invoice, numbered now,
     * and the audit entries. Exactly once per order (the caller's conditional update lets one delivery through; a
     * unique index on (order, kind, round) backs it: this is round 1). `eurRate` is what `rateForSettlement` answered before the transaction.
     */
    async orderCompleted(
      tx: DbOrTx,
      order: OrderRow,
      eurRate: EurReferenceRate | null = null,
    ): Promise<repo.InvoiceRow> {
      const customer = order.userId;
      await audit.record(tx, {
        actor: { type: 'provider', id: order.provider },
        action: 'order.completed',
        object: { type: 'order', id: order.id },
        customerUserId: customer,
        data: { provider: order.provider, paymentId: order.providerPaymentId, totalCents: order.totalAmountCents },
      });
      const invoice = await issue(tx, 'invoice', contentOf(order), 1, order.paymentCompletedAt ?? now(), null, eurRate);
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
     * The money went back to the buyer through their bank (a dispute's funds withdrawn, or a dispute lost; issue 19):
     * the order's latest invoice is credited like a refund's, once (inside the dispute's transaction). Null when the
     * order was never invoiced or that invoice is credited already.
     */
    async orderChargedBack(tx: DbOrTx, order: OrderRow): Promise<repo.InvoiceRow | null> {
      return creditNoteFor(tx, order, now());
    },

    /**
     * A dispute won after its funds were withdrawn (inside the dispute's transaction): the money is the seller's
     * again, and the invoice credited at the withdrawal is issued again (ADR 035): a new number, dated now, the same
     * parties, line, amounts and VAT as that invoice, its VAT in EUR at `eurRate` (the rate of today, fetched before
     * the transaction; null: completed later, ADR 036). Null when the latest invoice is not credited (nothing to
     * issue again) or the order was never invoiced.
     */
    async orderReinstated(
      tx: DbOrTx,
      order: OrderRow,
      eurRate: EurReferenceRate | null = null,
    ): Promise<repo.InvoiceRow | null> {
      const credited = await repo.latestInvoiceOf(tx, order.id);
      if (!credited || !(await repo.creditNoteOf(tx, credited.id))) return null;
      const invoice = await issue(tx, 'invoice', contentOfInvoice(credited), credited.round + 1, now(), null, eurRate);
      await audit.record(tx, {
        actor: { type: 'system' },
        action: 'invoice.issued',
        object: { type: 'invoice', id: invoice.id },
        customerUserId: order.userId,
        data: {
          number: invoice.number,
          orderId: order.id,
          totalCents: invoice.totalCents,
          replacesInvoiceNumber: credited.number,
        },
      });
      return invoice;
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

    /**
     * The user's invoices and credit notes, newest first, each naming its order (the orders module adds where each
     * order stands now: GET /invoices, GET /orders).
     */
    async documentsOf(userId: number): Promise<UserDocument[]> {
      const rows = await repo.listByUser(db, userId);
      const numbers = new Map(rows.map((row) => [row.id, row.number]));
      return rows.map((row) => ({
        id: row.id,
        number: row.number,
        kind: row.kind,
        issued_at: row.issuedAt.toISOString(),
        total: row.totalCents,
        currency: row.currency,
        order_id: row.orderId,
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

    completeMissingEurLines,

    /**
     * The order's invoice (its latest: a dispute won after its funds were withdrawn issues it again) for a caller who
     * already proved the order is theirs (GET /upgrades/orders/:id/receipt); 404 when never invoiced.
     */
    async pdfForOrder(orderId: number) {
      const invoice = await repo.latestInvoiceOf(db, orderId);
      if (!invoice) throw notFound('This order has no invoice.', 'invoice_not_found');
      return pdfOf(invoice);
    },
  };
}
export type InvoicesService = ReturnType<typeof createInvoicesService>;

/** What a document shows: its parties, line, amounts and VAT, snapshots taken when it is issued. */
type Content = Pick<
  repo.InvoiceRow,
  | 'orderId'
  | 'userId'
  | 'seller'
  | 'buyer'
  | 'lineDescription'
  | 'currency'
  | 'subtotalCents'
  | 'vatRateBp'
  | 'vatCents'
  | 'totalCents'
  | 'reverseCharge'
  | 'buyerVatId'
  | 'vatConsultationNumber'
  | 'provider'
  | 'providerPaymentId'
  | 'eurLineRequired'
>;

/** What an invoice issued again shows: exactly what `invoice` showed. */
function contentOfInvoice(invoice: repo.InvoiceRow): Content {
  return {
    orderId: invoice.orderId,
    userId: invoice.userId,
    seller: invoice.seller,
    buyer: invoice.buyer,
    lineDescription: invoice.lineDescription,
    currency: invoice.currency,
    subtotalCents: invoice.subtotalCents,
    vatRateBp: invoice.vatRateBp,
    vatCents: invoice.vatCents,
    totalCents: invoice.totalCents,
    reverseCharge: invoice.reverseCharge,
    buyerVatId: invoice.buyerVatId,
    vatConsultationNumber: invoice.vatConsultationNumber,
    provider: invoice.provider,
    providerPaymentId: invoice.providerPaymentId,
    eurLineRequired: invoice.eurLineRequired,
  };
}

/** The invoice line: 'License upgrade LITE → REGULAR, license key …' or '12 Keyport credits'. */
function lineDescription(order: OrderRow): string {
  if (order.kind === 'credit_pack') return keyportCreditsLabel(order.credits ?? 0);
  return `License upgrade ${upgradePathLabel(order.path as UpgradePath)}, license key ${order.licenseKey}`;
}

/** '2026-000001' for invoices, 'CN-2026-000001' for credit notes. */
export function formatNumber(kind: InvoiceKind, year: number, sequence: number): string {
  return `${kind === 'credit_note' ? 'CN-' : ''}${year}-${String(sequence).padStart(6, '0')}`;
}

/** The buyer as the document prints them: street lines, 'postal code city', state, then the country by name. */
function buyerOf(order: OrderRow): InvoiceBuyer {
  const { billing } = order;
  const { address } = billing;
  return {
    name: billing.name,
    companyName: billing.company_name,
    email: billing.email,
    address: [address.line1, address.line2, [address.postal_code, address.city].join(' ').trim(), address.state].filter(
      (part): part is string => Boolean(part),
    ),
    country: address.country,
    countryName: countryName(address.country),
    isBusiness: billing.is_business,
    vatId: order.vatId,
  };
}
