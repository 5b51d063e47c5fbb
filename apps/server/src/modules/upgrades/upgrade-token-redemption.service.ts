import type { Key } from '@keyport/shared/contracts/keys';
import { TOKEN_MESSAGES } from '@keyport/shared/domain/card-payment';
import type { Tier } from '@keyport/shared/domain/tiers';
import { UPGRADE_PATH_TIERS, tokenRedeemedMessage, type UpgradePath } from '@keyport/shared/domain/upgrade-paths';
import type { Db, DbOrTx } from '../../db/client';
import { badRequest, conflict } from '../../http/errors';
import type { RateLimiter } from '../../http/rate-limit';
import { hashSecret } from '../../lib/secrets';
import type { AnalyticsService } from '../analytics/analytics.service';
import type { KeysService } from '../keys/keys.service';
import { TOKEN_ALREADY_USED, TOKEN_NOT_VALID, TOKEN_REVOKED, normalizeUpgradeToken } from './upgrades.service';
import * as repo from './upgrades.repo';

/**
 * What the payments module does when a token changes a key's tier (issue 19, ADR 035): inside the redemption's
 * transaction, right after the tier changed (the key's row is locked), it refuses while a payment of the key is being
 * captured (a 409: the transaction rolls back, the token stays unused) and voids the key's pending order, whose upgrade
 * no longer applies. It answers what to do once the transaction committed (cancel that order's card payment).
 */
export interface KeyTierGuard {
  keyTierChanged(tx: DbOrTx, keyId: number, tier: Tier): Promise<() => Promise<void>>;
}

export interface UpgradeTokenRedemptionDeps {
  db: Db;
  keys: Pick<KeysService, 'requireOwnedKey' | 'changeTier'>;
  /** The payments module (built before this service: construction is one way, issue 21). */
  tierGuard: KeyTierGuard;
  analytics: Pick<AnalyticsService, 'recordTokenRedemption' | 'deliverSoon'>;
  /** Token redemptions per user and per IP (tokens must not be guessable by trying). */
  redeemLimits: { byUser: RateLimiter; byIp: RateLimiter };
}

/**
 * Redeeming an upgrade token (a single-use code that raises a key's tier with no payment). Its own service so that
 * construction is one way: payments needs the upgrades service (prices, applying a paid upgrade), and redemption needs
 * payments (the key's pending or capturing order) — before issue 21 a callback set after construction in services.ts.
 */
export function createUpgradeTokenRedemption(deps: UpgradeTokenRedemptionDeps) {
  const { db, keys, tierGuard, analytics, redeemLimits } = deps;

  return {
    /**
     * §7 /keys/upgrade/{regular,pro,l2p}: the caller's key at the path's `from` tier, the token unused and of that
     * path. The token is spent by one conditional UPDATE in the same transaction as the tier change: either both
     * happen or neither.
     */
    async redeemToken(
      userId: number,
      ip: string,
      input: { path: UpgradePath; token: string; licenseKey: string },
    ): Promise<{ key: Key; message: string; analyticsEventId: string }> {
      await redeemLimits.byIp.hit(`redeem:${ip}`);
      await redeemLimits.byUser.hit(`redeem:${userId}`);
      const token = normalizeUpgradeToken(input.token);
      const tokenHash = hashSecret(token);
      const { from, to } = UPGRADE_PATH_TIERS[input.path];
      const { key, analyticsEventId, afterCommit } = await db.transaction(async (tx) => {
        const owned = await keys.requireOwnedKey(userId, input.licenseKey, tx);
        if (owned.tier !== from) throw badRequest(TOKEN_MESSAGES.invalidPath, 'invalid_upgrade_path');
        const spent = await repo.spendToken(tx, { tokenHash, path: input.path, userId, keyId: owned.id });
        if (!spent) throw await tokenProblem(tx, tokenHash);
        const upgraded = await keys.changeTier(
          { keyId: owned.id, ownerId: userId, from, to, reason: 'token', reference: `token:${spent.id}` },
          tx,
        );
        // The key changed between the look-up and the update: the transaction rolls back and the token stays unused.
        if (!upgraded) throw conflict(TOKEN_MESSAGES.failed, 'key_changed');
        // A payment being captured for this key wins (409, rolled back); a pending one no longer applies (void).
        const afterCommit = await tierGuard.keyTierChanged(tx, owned.id, to);
        await repo.insertPurchasedUpgrade(tx, {
          userId,
          licenseKeyId: owned.id,
          licenseKey: owned.apiKey,
          path: input.path,
          fromTier: from,
          toTier: to,
          source: 'token',
          tokenId: spent.id,
          paymentCompletedAt: new Date(),
        });
        const analyticsEventId = await analytics.recordTokenRedemption(tx, {
          tokenId: spent.id,
          userId,
          licenseKey: owned.apiKey,
          path: input.path,
          fromTier: from,
          toTier: to,
        });
        return { key: upgraded, analyticsEventId, afterCommit };
      });
      await afterCommit();
      analytics.deliverSoon();
      return { key, message: tokenRedeemedMessage(input.path), analyticsEventId };
    },
  };

  async function tokenProblem(tx: DbOrTx, tokenHash: string) {
    const found = await repo.findToken(tx, tokenHash);
    if (!found) return badRequest(TOKEN_NOT_VALID, 'invalid_upgrade_token');
    if (found.revokedAt) return conflict(TOKEN_REVOKED, 'upgrade_token_revoked');
    if (found.usedAt) return conflict(TOKEN_ALREADY_USED, 'upgrade_token_used');
    return badRequest(TOKEN_MESSAGES.invalidPath, 'invalid_upgrade_path');
  }
}
export type UpgradeTokenRedemption = ReturnType<typeof createUpgradeTokenRedemption>;
