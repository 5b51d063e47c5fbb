import type { FastifyBaseLogger } from 'fastify';
import type { DbOrTx } from '../../db/client';
import type { Outbox } from '../../integrations/email/outbox';
import type { ProviderPayment } from '../../integrations/payments/port';
import type { CreditsService } from '../credits/credits.service';
import type { InvoicesService } from '../invoices/invoices.service';
import type { UpgradesService } from '../upgrades/upgrades.service';
import { toPaidOrder } from './order-settle';
import { refundEmail } from './payment-emails';
import * as repo from './payments.repo';

export interface OrderRefundsDeps {
  upgrades: Pick<UpgradesService, 'revertPaidUpgrade'>;
  credits: Pick<CreditsService, 'clawback'>;
  invoices: Pick<InvoicesService, 'orderRefunded'>;
  outbox: Outbox;
  /** The card provider's name (the default payer of a payment). */
  providerName: string;
  log: FastifyBaseLogger;
  now: () => Date;
}

/**
 * Refund (issue 21: payments.service split into quote, start, settle and refund): a full refund, as the provider
 * reports it, inside the caller's transaction.
 */
export function createOrderRefunds(deps: OrderRefundsDeps) {
  const { upgrades, credits, outbox, log, now } = deps;

  /**
   * A full refund: the order becomes refunded; the tier goes back when nothing changed since, or a credit pack's credits
   * are clawed back (what was already spent becomes owed; ADR 023).
   */
  async function refund(payment: ProviderPayment, tx: DbOrTx, providerName: string = deps.providerName): Promise<void> {
    const order = await repo.findOrderByPayment(tx, providerName, payment.ref);
    if (!order) return;
    if (payment.refundedCents < order.totalAmountCents) {
      log.info({ orderId: order.id, refundedCents: payment.refundedCents }, 'partial refund: the upgrade stays');
      return;
    }
    const refunded = await repo.refundOrder(tx, order.id, now());
    if (!refunded) return;
    // Only a delivered order has something to take back ('needs_refund' and 'review' never delivered).
    const delivered = order.status === 'completed' || order.status === 'disputed';
    const paid = repo.kinded(order);
    if (paid.kind === 'upgrade') {
      let tierReverted: boolean | null = null;
      if (delivered) {
        const reverted = await upgrades.revertPaidUpgrade(toPaidOrder(paid), tx);
        // A record refunded already (a dispute's withdrawal took the upgrade back): nothing left to revert.
        tierReverted = reverted.recordRefunded ? reverted.tierReverted : null;
        if (tierReverted === false)
          log.warn({ orderId: order.id }, 'refunded; the key changed since, so its tier stays');
      }
      await deps.invoices.orderRefunded(tx, refunded, { kind: 'upgrade', tierReverted });
    } else {
      const clawedBack = delivered
        ? await credits.clawback(tx, {
            userId: paid.userId,
            amount: paid.credits,
            sourceRef: `order:${paid.id}:refund`,
            note: `Order ${paid.id} was refunded`,
          })
        : null;
      await deps.invoices.orderRefunded(tx, refunded, {
        kind: 'credit_pack',
        credits: delivered ? paid.credits : null,
        owedAfter: clawedBack ? clawedBack.owed : null,
      });
    }
    await outbox.enqueue(tx, refundEmail(order));
  }

  return { refund };
}
export type OrderRefunds = ReturnType<typeof createOrderRefunds>;
