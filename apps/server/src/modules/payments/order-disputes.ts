import type { FastifyBaseLogger } from 'fastify';
import type { DbOrTx } from '../../db/client';
import type { EurReferenceRate } from '../../integrations/exchange-rates/port';
import type { DisputeState, UpgradeOrderStatus } from '../../db/schema';
import type { AuditService } from '../audit/audit.service';
import type { CreditsService } from '../credits/credits.service';
import type { InvoicesService } from '../invoices/invoices.service';
import type { PaidOrder, UpgradesService } from '../upgrades/upgrades.service';
import * as repo from './payments.repo';

/** A dispute as the provider reports it now (re-read, never taken from the event), in Keyport's terms. */
export interface DisputeReport {
  ref: string;
  state: DisputeState;
  reason: string | null;
}

export interface OrderDisputesDeps {
  upgrades: Pick<UpgradesService, 'revertPaidUpgrade' | 'reapplyPaidUpgrade'>;
  credits: Pick<CreditsService, 'grant' | 'clawback'>;
  invoices: Pick<InvoicesService, 'orderDisputed' | 'orderChargedBack' | 'orderReinstated'>;
  audit: Pick<AuditService, 'record'>;
  toPaidOrder: (order: repo.UpgradeOrderRow) => PaidOrder;
  log: FastifyBaseLogger;
}

/** Orders a dispute can concern: paid ones whose money is still with the seller (or in a dispute already). */
const DISPUTABLE: UpgradeOrderStatus[] = ['completed', 'disputed', 'needs_refund', 'review'];

/**
 * Chargebacks (issue 19, ADR 035). Every dispute event re-reads the dispute and hands its state here, inside the
 * webhook's transaction, with the order's row locked (events of one order take turns):
 *
 * - open: a completed order becomes `disputed`; what it delivered stays (the dispute may be won).
 * - funds_withdrawn: the money left the seller: the upgrade is taken back when the key is unchanged since the purchase
 *   (a credit pack's credits are clawed back) and the invoice gets its credit note, dated now; the order stays
 *   `disputed`.
 * - lost: the order is `charged_back`: what it delivered is taken back and its invoice credited (each unless the
 *   withdrawal did already: one credit note).
 * - won: a disputed order is `completed` again; what the withdrawal took back is given again when nothing changed since,
 *   and the invoice it credited is issued again (a new number, dated now; ADR 035).
 *
 * Orders flagged for a person (needs_refund, review) keep their status while disputed; a lost dispute charges them
 * back. Each step is audited.
 */
export function createOrderDisputes(deps: OrderDisputesDeps) {
  const { upgrades, credits, invoices, audit, log } = deps;

  function record(tx: DbOrTx, order: repo.OrderRow, action: string, reason: string | null, data = {}) {
    return audit.record(tx, {
      actor: { type: 'provider', id: order.provider },
      action,
      object: { type: 'order', id: order.id },
      customerUserId: order.userId,
      reason,
      data: { provider: order.provider, disputeRef: order.disputeRef, ...data },
    });
  }

  /** The money is gone: the upgrade goes back when the key is unchanged since, a pack's credits are clawed back. */
  async function takeBack(tx: DbOrTx, order: repo.OrderRow): Promise<void> {
    const paid = repo.kinded(order);
    if (paid.kind === 'upgrade') {
      const { recordRefunded, tierReverted } = await upgrades.revertPaidUpgrade(deps.toPaidOrder(paid), tx, 'dispute');
      if (!recordRefunded) return; // taken back before
      await audit.record(tx, {
        actor: { type: 'system' },
        action: tierReverted ? 'upgrade.reverted' : 'upgrade.kept',
        object: { type: 'license_key', id: paid.licenseKeyId },
        customerUserId: paid.userId,
        reason: tierReverted
          ? `Order ${paid.id} was charged back: ${paid.toTier} back to ${paid.fromTier}.`
          : `Order ${paid.id} was charged back, but the key changed since: its tier stays.`,
        data: { orderId: paid.id, from: paid.toTier, to: paid.fromTier },
      });
      if (!tierReverted) log.warn({ orderId: paid.id }, 'charged back; the key changed since, so its tier stays');
      return;
    }
    const clawed = await credits.clawback(tx, {
      userId: paid.userId,
      amount: paid.credits,
      sourceRef: `order:${paid.id}:dispute`,
      note: `Order ${paid.id} was disputed`,
    });
    if (!clawed) return;
    await audit.record(tx, {
      actor: { type: 'system' },
      action: 'credits.clawed_back',
      object: { type: 'user', id: paid.userId },
      customerUserId: paid.userId,
      reason: `Order ${paid.id} was disputed: its ${paid.credits} credits were taken back.`,
      data: { orderId: paid.id, credits: paid.credits, owedAfter: clawed.owed },
    });
  }

  /** A won dispute whose funds were withdrawn: what was taken back is given again when nothing changed since. */
  async function giveBack(tx: DbOrTx, order: repo.OrderRow): Promise<void> {
    const paid = repo.kinded(order);
    if (paid.kind === 'upgrade') {
      const { reapplied } = await upgrades.reapplyPaidUpgrade(deps.toPaidOrder(paid), tx);
      await audit.record(tx, {
        actor: { type: 'system' },
        action: reapplied ? 'upgrade.reapplied' : 'upgrade.kept',
        object: { type: 'license_key', id: paid.licenseKeyId },
        customerUserId: paid.userId,
        reason: reapplied
          ? `Order ${paid.id} won its dispute: ${paid.fromTier} back to ${paid.toTier}.`
          : `Order ${paid.id} won its dispute, but the key changed since: its tier stays.`,
        data: { orderId: paid.id, from: paid.fromTier, to: paid.toTier },
      });
      return;
    }
    const granted = await credits.grant(tx, {
      userId: paid.userId,
      kind: 'purchase',
      amount: paid.credits,
      sourceRef: `order:${paid.id}:dispute-won`,
      note: `Order ${paid.id} won its dispute`,
    });
    if (granted) {
      await audit.record(tx, {
        actor: { type: 'system' },
        action: 'credits.restored',
        object: { type: 'user', id: paid.userId },
        customerUserId: paid.userId,
        reason: `Order ${paid.id} won its dispute: its ${paid.credits} credits were given back.`,
        data: { orderId: paid.id, credits: paid.credits },
      });
    }
  }

  return {
    /**
     * Applies the dispute's state to its order, inside `tx`. Answers the order as it is now (null when it is gone).
     * A state already recorded for the same dispute changes nothing (replays, out-of-order events).
     */
    async apply(
      tx: DbOrTx,
      orderId: number,
      dispute: DisputeReport,
      eventType: string | null,
      /** For a won dispute: the euro reference rate of today, fetched before the transaction (ADR 036). */
      eurRate: EurReferenceRate | null = null,
    ): Promise<repo.OrderRow | null> {
      const order = await repo.lockOrder(tx, orderId);
      if (!order) return null;
      if (!DISPUTABLE.includes(order.status)) {
        log.info({ orderId, status: order.status, state: dispute.state }, 'a dispute of an order that cannot change');
        return order;
      }
      const previous = order.disputeRef === dispute.ref ? order.disputeState : null;
      if (previous === dispute.state || previous === 'won' || previous === 'lost') return order; // nothing new
      // Only what the order delivered can be taken back (needs_refund and review never delivered).
      const delivered =
        order.upgradeProcessedAt !== null && (order.status === 'completed' || order.status === 'disputed');
      const set = (status: UpgradeOrderStatus) =>
        repo.setDispute(tx, order.id, { status, disputeState: dispute.state, disputeRef: dispute.ref });
      const opened = order.status === 'completed' ? 'disputed' : order.status;

      switch (dispute.state) {
        case 'open': {
          if (previous === 'funds_withdrawn') return order; // funds come back only with a closed dispute
          const updated = await set(opened);
          await invoices.orderDisputed(tx, updated, eventType);
          return updated;
        }
        case 'funds_withdrawn': {
          const updated = await set(opened);
          if (previous === null) await invoices.orderDisputed(tx, updated, eventType);
          await record(tx, updated, 'order.dispute_funds_withdrawn', eventType, { totalCents: order.totalAmountCents });
          if (delivered) await takeBack(tx, updated);
          await invoices.orderChargedBack(tx, updated);
          return updated;
        }
        case 'lost': {
          const updated = await set('charged_back');
          await record(tx, updated, 'order.dispute_lost', dispute.reason, { totalCents: order.totalAmountCents });
          if (delivered) await takeBack(tx, updated);
          await invoices.orderChargedBack(tx, updated);
          return updated;
        }
        case 'won': {
          const updated = await set(order.status === 'disputed' ? 'completed' : order.status);
          await record(tx, updated, 'order.dispute_won', dispute.reason);
          if (delivered && previous === 'funds_withdrawn') await giveBack(tx, updated);
          // The money is back: the invoice credited at the withdrawal is issued again (none when nothing was credited).
          await invoices.orderReinstated(tx, updated, eurRate);
          return updated;
        }
      }
    },
  };
}
export type OrderDisputes = ReturnType<typeof createOrderDisputes>;
