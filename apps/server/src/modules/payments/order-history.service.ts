import type { InvoiceSummary, MyOrder } from '@keyport/shared/contracts/invoices';
import { keyportCreditsLabel } from '@keyport/shared/domain/credit-packs';
import type { Db } from '../../db/client';
import type { InvoicesService } from '../invoices/invoices.service';
import * as repo from './payments.repo';

export interface OrderHistoryDeps {
  db: Db;
  /** The documents of the user's orders (the invoices module owns them; it knows nothing of orders' statuses). */
  invoices: Pick<InvoicesService, 'documentsOf'>;
}

/**
 * What a customer bought, for Settings → Invoices (issue 21): one list of their orders from the one orders table —
 * paid upgrades and credit packs, each with its invoice and credit notes, and the legacy store's orders. The
 * orders' statuses are added here, so the invoices module never asks the payments module (a one-way query: it was a
 * late-bound callback wired in services.ts).
 */
export function createOrderHistory(deps: OrderHistoryDeps) {
  const { db, invoices } = deps;

  return {
    /** GET /orders: newest first; an order never charged (pending, void, expired…) is not a purchase and is left out. */
    async ordersOf(userId: number): Promise<MyOrder[]> {
      const [rows, documents] = await Promise.all([
        repo.listPaidOrdersOfUser(db, userId),
        invoices.documentsOf(userId),
      ]);
      return rows.map((row): MyOrder => {
        if (row.kind === 'legacy') {
          return {
            kind: 'legacy',
            id: row.id,
            description: row.description ?? '',
            license_key: null,
            created_at: row.createdAt.toISOString(),
            subtotal: null,
            vat_amount: null,
            total: null,
            vat_rate_bp: null,
            reverse_charge: false,
            currency: null,
            status: null,
            documents: [],
          };
        }
        const order = repo.kinded(row);
        return {
          kind: order.kind,
          id: order.id,
          description:
            order.kind === 'upgrade'
              ? `License upgrade ${order.fromTier} to ${order.toTier}`
              : keyportCreditsLabel(order.credits),
          license_key: order.kind === 'upgrade' ? order.licenseKey : null,
          created_at: order.createdAt.toISOString(),
          subtotal: order.baseAmountCents,
          vat_amount: order.vatAmountCents,
          total: order.totalAmountCents,
          vat_rate_bp: order.vatRateBp,
          reverse_charge: order.reverseCharge,
          currency: order.currency,
          status: order.status,
          documents: documents
            .filter((document) => document.order_id === order.id)
            .reverse()
            .map(({ order_id: _orderId, ...document }) => document),
        };
      });
    },

    /** GET /invoices: the user's invoices and credit notes, newest first, with where each one's order stands now. */
    async invoicesOf(userId: number): Promise<InvoiceSummary[]> {
      const documents = await invoices.documentsOf(userId);
      const rows = await repo.orderStatuses(db, [...new Set(documents.map((document) => document.order_id))]);
      const statuses = new Map(rows.map((row) => [row.id, row.status]));
      return documents.map((document) => ({ ...document, status: statuses.get(document.order_id) ?? 'completed' }));
    },
  };
}
export type OrderHistory = ReturnType<typeof createOrderHistory>;
