import type { Tier } from '@keyport/shared/domain/tiers';
import type { Db, DbOrTx } from '../../db/client';
import { conflict } from '../../http/errors';
import type { KeysService } from '../keys/keys.service';
import { ORDER_MESSAGES } from './order-messages';
import * as repo from './payments.repo';

export type ClaimResult =
  /** The order is this caller's to capture: the upgrade applied when claimed, and the key is held until it settles. */
  | { kind: 'claimed'; order: repo.OrderRow }
  /** Another request claimed it and is capturing it now. */
  | { kind: 'busy'; order: repo.OrderRow }
  /** It will never be charged: superseded, expired, or void (perhaps just now, because its upgrade no longer applies). */
  | { kind: 'closed'; order: repo.OrderRow }
  /** Settled already (completed, flagged, refunded, disputed). */
  | { kind: 'settled'; order: repo.OrderRow };

/**
 * Who may take money for an order, decided by the database (issue 19, ADR 035). Nothing is captured without a claim;
 * a claim is one short transaction that locks the key's row, checks the order is still the key's open one and its
 * upgrade still applies (the key is still the payer's, at the order's `from` tier), and moves it pending → capturing.
 * A token redemption changes the tier under the same row lock and then asks `tierChanged`: so of a claim and a
 * redemption, whichever locks the key second sees what the first did — the redemption is refused while a capture is
 * under way, a claim after a redemption finds the upgrade gone and voids its order. No network call runs inside.
 */
export function createOrderClaims(deps: { db: Db; keys: Pick<KeysService, 'lockKey'> }) {
  const { db, keys } = deps;

  function outcome(order: repo.OrderRow): ClaimResult {
    if (order.status === 'capturing') return { kind: 'busy', order };
    if (repo.CLOSED_UNPAID.includes(order.status)) return { kind: 'closed', order };
    return { kind: 'settled', order };
  }

  return {
    async claim(orderId: number): Promise<ClaimResult> {
      return db.transaction(async (tx) => {
        const order = await repo.findOrder(tx, orderId);
        if (!order) throw new Error(`order ${orderId} vanished`);
        if (order.status !== 'pending') return outcome(order);
        const paid = repo.kinded(order);
        if (paid.kind === 'upgrade') {
          const key = await keys.lockKey(paid.licenseKeyId, tx);
          const reason =
            !key || key.ownerId !== paid.userId
              ? ORDER_MESSAGES.keyGone
              : key.tier !== paid.fromTier
                ? ORDER_MESSAGES.notApplicable(key.tier)
                : null;
          if (reason) {
            const voided = await repo.voidOrder(tx, paid.id, reason, ['pending']);
            return voided ? { kind: 'closed', order: voided } : outcome((await repo.findOrder(tx, paid.id)) ?? order);
          }
        }
        const claimed = await repo.claimOrder(tx, order.id);
        return claimed ? { kind: 'claimed', order: claimed } : outcome((await repo.findOrder(tx, order.id)) ?? order);
      });
    },

    /**
     * Inside a token redemption's transaction, after it changed the key's tier (its row is locked): a capture under
     * way wins (409, the redemption rolls back); the key's pending order no longer applies and is voided. Answers the
     * voided orders (their card payments are released after the commit).
     */
    async tierChanged(tx: DbOrTx, keyId: number, tier: Tier): Promise<repo.OrderRow[]> {
      if (await repo.findCapturingOrderOfKey(tx, keyId)) throw conflict(ORDER_MESSAGES.keyBusy, 'payment_in_progress');
      return repo.voidPendingOrdersOfKey(tx, keyId, ORDER_MESSAGES.notApplicable(tier));
    },
  };
}
export type OrderClaims = ReturnType<typeof createOrderClaims>;
