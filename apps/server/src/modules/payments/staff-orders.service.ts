import type { FastifyBaseLogger } from 'fastify';
import type { PaymentMethod, StaffOrder } from '@keyport/shared/contracts/payments';
import type { Db } from '../../db/client';
import type { DisputeState, UpgradeOrderStatus } from '../../db/schema';
import { AppError, conflict, notFound } from '../../http/errors';
import { PaymentProviderError, type PaymentProvider } from '../../integrations/payments/port';
import { PaypalProviderError, type PaypalProvider } from '../../integrations/paypal/port';
import type { AuditService } from '../audit/audit.service';
import type { AuthService } from '../auth/auth.service';
import * as repo from './payments.repo';

export const ORDER_NOT_FOUND = 'Order not found.';
export const ORDER_NOT_REFUNDABLE = 'Only a completed or disputed order can be refunded.';
export const PROVIDER_GONE = 'This order was paid through a provider this portal no longer uses: refund it there.';
export const REFUND_FAILED =
  "The payment provider did not take the refund. Try again, or refund it in the provider's dashboard.";
/** Rows per page of the staff order list. */
export const ORDER_PAGE_SIZE = 50;

/** The provider names each way of paying is stored under (either adapter: real or sandbox). */
const PROVIDERS_OF: Record<PaymentMethod, string[]> = {
  card: ['stripe', 'sandbox'],
  paypal: ['paypal', 'paypal_sandbox'],
};

/** Only a delivered order has money to give back (the webhook's `refund` then reverts the tier or the credits). */
const REFUNDABLE: UpgradeOrderStatus[] = ['completed', 'disputed'];

export interface StaffOrdersServiceDeps {
  db: Db;
  card: PaymentProvider;
  wallet: PaypalProvider;
  audit: Pick<AuditService, 'record'>;
  auth: Pick<AuthService, 'emailsOf'>;
  log: FastifyBaseLogger;
}

/**
 * Issue 12: the staff side of orders. Staff list card and PayPal orders and ask the order's provider for a full refund;
 * nothing else changes here: the provider's refund webhook runs the same `refund` as any refund (ADR 028).
 */
export function createStaffOrdersService({ db, card, wallet, audit, auth, log }: StaffOrdersServiceDeps) {
  async function toStaffOrders(rows: repo.PayableOrderRow[]): Promise<StaffOrder[]> {
    const emails = await auth.emailsOf(rows.map((row) => row.userId));
    return rows.map((row) => ({
      id: row.id,
      kind: row.kind,
      status: row.status,
      user_id: row.userId,
      email: emails.get(row.userId) ?? row.billing.email,
      license_key: row.licenseKey,
      from: row.fromTier,
      to: row.toTier,
      credits: row.credits,
      method: PROVIDERS_OF.paypal.includes(row.provider) ? 'paypal' : 'card',
      provider: row.provider,
      provider_payment_id: row.providerPaymentId,
      currency: 'usd',
      base_amount: row.baseAmountCents,
      vat_amount: row.vatAmountCents,
      total_amount: row.totalAmountCents,
      vat_rate: row.vatRateBp / 100,
      reverse_charge: row.reverseCharge,
      billing_country: row.billing.address.country,
      dispute_state: row.disputeState,
      dispute_ref: row.disputeRef,
      vat_id: row.vatId,
      vat_consultation_number: row.vatConsultationNumber,
      processing_error: row.processingError,
      created_at: row.createdAt.toISOString(),
      paid_at: row.paymentCompletedAt?.toISOString() ?? null,
      refunded_at: row.refundedAt?.toISOString() ?? null,
    }));
  }

  /** Asks whoever took the money for a refund of what remains; one idempotency key per order. */
  async function askProviderToRefund(order: repo.OrderRow): Promise<void> {
    const ref = order.providerPaymentId;
    const key = `keyport-refund-order-${order.id}`;
    const ask =
      ref && order.provider === card.name
        ? () => card.refundPayment(ref, { idempotencyKey: key })
        : ref && order.provider === wallet.name
          ? () => wallet.refundOrder(ref, key)
          : null;
    if (!ask) throw conflict(PROVIDER_GONE, 'provider_not_configured');
    try {
      await ask();
    } catch (error) {
      if (error instanceof PaymentProviderError || error instanceof PaypalProviderError) {
        log.warn({ err: error, orderId: order.id }, 'the provider did not take a staff refund');
        throw new AppError(502, REFUND_FAILED, 'provider_refund_failed');
      }
      throw error;
    }
  }

  return {
    /** GET /staff/orders: newest first (or oldest), a page of ORDER_PAGE_SIZE; the cursor is the last id seen. */
    async list(query: {
      status?: UpgradeOrderStatus;
      dispute?: DisputeState | 'any';
      provider?: PaymentMethod;
      order?: 'asc' | 'desc';
      cursor?: string;
      limit?: number;
    }) {
      const limit = query.limit ?? ORDER_PAGE_SIZE;
      const rows = await repo.listOrdersForStaff(db, {
        status: query.status,
        dispute: query.dispute,
        providers: query.provider ? PROVIDERS_OF[query.provider] : undefined,
        afterId: query.cursor === undefined ? null : Number(query.cursor),
        order: query.order ?? 'desc',
        limit,
      });
      const last = rows.at(-1);
      return {
        orders: await toStaffOrders(rows),
        next_cursor: rows.length === limit && last ? String(last.id) : null,
      };
    },

    /**
     * POST /staff/orders/:id/refund: the provider is asked first (outside any transaction); the request is audited once
     * it took it. The order stays as it is until the provider's refund webhook arrives.
     */
    async requestRefund(staffId: number, orderId: number, reason: string): Promise<StaffOrder> {
      const order = await repo.findOrder(db, orderId);
      // A legacy order (issue 21) was never paid through a provider of ours: staff do not see it, nor refund it.
      if (!order || order.kind === 'legacy') throw notFound(ORDER_NOT_FOUND, 'order_not_found');
      if (!REFUNDABLE.includes(order.status)) throw conflict(ORDER_NOT_REFUNDABLE, 'order_not_refundable');
      await askProviderToRefund(order);
      await db.transaction((tx) =>
        audit.record(tx, {
          actor: { type: 'staff', id: staffId },
          action: 'order.refund_requested',
          object: { type: 'order', id: order.id },
          customerUserId: order.userId,
          reason,
          data: {
            provider: order.provider,
            provider_payment_id: order.providerPaymentId,
            total_amount_cents: order.totalAmountCents,
          },
        }),
      );
      const current = (await repo.findOrder(db, orderId)) ?? order;
      return (await toStaffOrders([current as repo.PayableOrderRow]))[0]!;
    },
  };
}
export type StaffOrdersService = ReturnType<typeof createStaffOrdersService>;
