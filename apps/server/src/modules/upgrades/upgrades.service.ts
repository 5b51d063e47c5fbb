import { randomInt } from 'node:crypto';
import type { Key } from '@keyport/shared/contracts/keys';
import type {
  PurchasedUpgrade,
  StaffUpgradeToken,
  UpgradeOption,
  UpgradeTokenStatus,
} from '@keyport/shared/contracts/upgrades';
import { formatUsd } from '@keyport/shared/domain/money';
import type { Tier } from '@keyport/shared/domain/tiers';
import {
  DEFAULT_UPGRADE_PRICES_CENTS,
  UPGRADE_PATH_TIERS,
  UPGRADE_PATHS,
  dashboardPickerSlug,
  upgradePathLabel,
  upgradePathsFrom,
  type UpgradePath,
} from '@keyport/shared/domain/upgrade-paths';
import type { Db, DbOrTx } from '../../db/client';
import { isUniqueViolation } from '../../db/pg-errors';
import { badRequest, conflict, notFound } from '../../http/errors';
import { hashSecret } from '../../lib/secrets';
import type { AuditService } from '../audit/audit.service';
import type { AuthService } from '../auth/auth.service';
import type { KeysService } from '../keys/keys.service';
import * as repo from './upgrades.repo';

export const TOKEN_NOT_VALID = 'This upgrade token is not valid. Check it and try again.';
export const TOKEN_ALREADY_USED = 'This upgrade token has already been used.';
export const TOKEN_REVOKED = 'This upgrade token has been revoked.';
export const TOKEN_NOT_FOUND = 'Upgrade token not found.';
export const TOKEN_NOT_REVOCABLE = 'Only an unused upgrade token can be revoked.';
/** Rows per page of the staff token list. */
export const TOKEN_PAGE_SIZE = 50;

/** A paid order, as fulfilment hands it over (modules/payments owns the order itself). */
export interface PaidOrder {
  id: number;
  userId: number;
  licenseKeyId: number;
  licenseKey: string;
  path: UpgradePath;
  fromTier: Tier;
  toTier: Tier;
  provider: string;
  currency: string;
  baseAmountCents: number;
  vatAmountCents: number;
  totalAmountCents: number;
  vatRateBp: number;
  reverseCharge: boolean;
  paymentCompletedAt: Date | null;
}

export interface UpgradePrice {
  path: UpgradePath;
  from: Tier;
  to: Tier;
  amountCents: number;
  providerPriceId: string | null;
}

export interface UpgradesServiceDeps {
  db: Db;
  keys: Pick<KeysService, 'requireOwnedKey' | 'changeTier'>;
  /** Staff writes (prices, token batches, revocations) are audited in their own transaction (issue 12). */
  audit: Pick<AuditService, 'record'>;
  /** The emails staff see next to a token (who minted it, who used it). */
  auth: Pick<AuthService, 'emailsOf'>;
}

// Crockford base32, as license keys: no I, L, O, U.
const TOKEN_ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/** A new upgrade token: `UPG-` and 5 groups of 5 characters (125 random bits). */
export function generateUpgradeToken(): string {
  const groups = Array.from({ length: 5 }, () =>
    Array.from({ length: 5 }, () => TOKEN_ALPHABET[randomInt(TOKEN_ALPHABET.length)]).join(''),
  );
  return `UPG-${groups.join('-')}`;
}

/**
 * What staff see of a token: its last group of 5 characters ('UPG-…-7QX2K' in the console). 100 of its 125 random
 * bits stay unknown, so the hint cannot be used to guess it.
 */
export function upgradeTokenHint(token: string): string {
  return token.slice(-5);
}

/** How a typed token is matched: trimmed, upper case (tokens are stored as a hash of that form). */
export function normalizeUpgradeToken(input: string): string {
  return input.trim().toUpperCase();
}

/**
 * Upgrades: the price catalogue, the options a key can take, single-use upgrade tokens, and the one way a paid or
 * redeemed upgrade reaches a key (through the keys service's conditional tier change), with its purchased record.
 */
export function createUpgradesService({ db, keys, audit, auth }: UpgradesServiceDeps) {
  async function prices(tx: DbOrTx = db): Promise<UpgradePrice[]> {
    const rows = await repo.listPrices(tx);
    return UPGRADE_PATHS.flatMap((path) => {
      const row = rows.find((candidate) => candidate.path === path);
      if (!row) return [];
      return [
        { path, ...UPGRADE_PATH_TIERS[path], amountCents: row.amountCents, providerPriceId: row.providerPriceId },
      ];
    });
  }

  return {
    prices,

    /** Puts the §9 prices into an empty catalogue (paths that have a price keep it). */
    async ensureCatalogue(priceIds: Partial<Record<UpgradePath, string>>): Promise<void> {
      await repo.insertMissingPrices(
        db,
        UPGRADE_PATHS.map((path) => ({
          path,
          amountCents: DEFAULT_UPGRADE_PRICES_CENTS[path],
          providerPriceId: priceIds[path] ?? null,
        })),
      );
    },

    async savePrices(
      staffId: number,
      entries: { path: UpgradePath; amount_cents: number; price_id: string | null }[],
      reason: string,
    ): Promise<UpgradePrice[]> {
      const paths = entries.map((entry) => entry.path);
      if (new Set(paths).size !== paths.length) throw badRequest('Each path may appear once.', 'duplicate_path');
      const ids = entries.flatMap((entry) => (entry.price_id ? [entry.price_id] : []));
      if (new Set(ids).size !== ids.length)
        throw badRequest('Each price id may belong to one path.', 'duplicate_price_id');
      try {
        await db.transaction(async (tx) => {
          for (const entry of entries) {
            await repo.upsertPrice(tx, {
              path: entry.path,
              amountCents: entry.amount_cents,
              providerPriceId: entry.price_id,
              updatedBy: staffId,
            });
          }
          await audit.record(tx, {
            actor: { type: 'staff', id: staffId },
            action: 'upgrade_prices.updated',
            object: { type: 'upgrade_prices', id: paths.join(',') },
            reason,
            data: { prices: entries },
          });
        });
      } catch (error) {
        // The unique index on provider_price_id: the id is another path's (one that was not in this request).
        if (isUniqueViolation(error))
          throw conflict('That price id already belongs to another path.', 'duplicate_price_id');
        throw error;
      }
      return prices();
    },

    /** §3 "Upgrade option": what the caller's key can become, with prices (PRO: none). */
    async optionsFor(userId: number, apiKey: string): Promise<{ key: Key; tier: Tier; options: UpgradeOption[] }> {
      const key = await keys.requireOwnedKey(userId, apiKey);
      const catalogue = await prices();
      const paths = upgradePathsFrom(key.tier);
      const options = paths.flatMap((path): UpgradeOption[] => {
        const price = catalogue.find((entry) => entry.path === path);
        if (!price) return [];
        return [
          {
            path,
            from: price.from,
            to: price.to,
            price: formatUsd(price.amountCents),
            price_cents: price.amountCents,
            priceId: price.providerPriceId,
            description: `Upgrade this ${upgradePathLabel(path)} license: the ${price.to} edition of the theme and its features.`,
            upgrade_path: dashboardPickerSlug(path),
            // One step at a time is the usual choice; LITE to PRO is the single recommended jump when it is offered.
            recommendedUpgrade: path === 'LITE_TO_PRO' || paths.length === 1,
          },
        ];
      });
      return { key: key.key, tier: key.tier, options };
    },

    /**
     * Mints a batch: only the hashes are stored, the tokens are answered this once (the console offers them as a
     * CSV). The batch and its audit entry (the token ids, never the tokens) are one transaction.
     */
    async mintTokens(staffId: number, path: UpgradePath, count: number, reason: string): Promise<string[]> {
      return db.transaction(async (tx) => {
        const minted: { id: number; token: string }[] = [];
        while (minted.length < count) {
          const batch = Array.from({ length: count - minted.length }, generateUpgradeToken);
          const byHash = new Map(batch.map((token) => [hashSecret(token), token]));
          const inserted = await repo.insertTokens(
            tx,
            path,
            [...byHash].map(([tokenHash, token]) => ({ tokenHash, tokenHint: upgradeTokenHint(token) })),
            staffId,
          );
          minted.push(...inserted.map((row) => ({ id: row.id, token: byHash.get(row.tokenHash)! })));
        }
        const ids = minted.map((entry) => entry.id);
        await audit.record(tx, {
          actor: { type: 'staff', id: staffId },
          action: 'upgrade_tokens.minted',
          object: { type: 'upgrade_token_batch', id: `${Math.min(...ids)}-${Math.max(...ids)}` },
          reason,
          data: { path, count, token_ids: ids },
        });
        return minted.map((entry) => entry.token);
      });
    },

    /** GET /staff/upgrade-tokens: newest first (or oldest), a page of TOKEN_PAGE_SIZE; the cursor is the last id seen. */
    async listTokens(query: {
      status?: UpgradeTokenStatus;
      path?: UpgradePath;
      order?: 'asc' | 'desc';
      cursor?: string;
      limit?: number;
    }) {
      const limit = query.limit ?? TOKEN_PAGE_SIZE;
      const rows = await repo.listTokens(db, {
        state: query.status,
        path: query.path,
        afterId: query.cursor === undefined ? null : Number(query.cursor),
        order: query.order ?? 'desc',
        limit,
      });
      const last = rows.at(-1);
      return {
        tokens: await toStaffTokens(rows),
        next_cursor: rows.length === limit && last ? String(last.id) : null,
      };
    },

    /** POST /staff/upgrade-tokens/:id/revoke: an unused token, by one conditional update, audited with it. */
    async revokeToken(staffId: number, tokenId: number, reason: string): Promise<StaffUpgradeToken> {
      const row = await db.transaction(async (tx) => {
        const revoked = await repo.revokeToken(tx, tokenId, staffId);
        if (!revoked) {
          const found = await repo.findTokenById(tx, tokenId);
          if (!found) throw notFound(TOKEN_NOT_FOUND, 'upgrade_token_not_found');
          throw conflict(TOKEN_NOT_REVOCABLE, 'upgrade_token_not_revocable');
        }
        await audit.record(tx, {
          actor: { type: 'staff', id: staffId },
          action: 'upgrade_token.revoked',
          object: { type: 'upgrade_token', id: revoked.id },
          reason,
          data: { path: revoked.path },
        });
        return revoked;
      });
      return (await toStaffTokens([row]))[0]!;
    },

    /**
     * A paid order reaches its key: the tier rises only if the key is still the payer's and still at the path's
     * `from` tier (never a double upgrade), and the purchased record is written (one per order: a unique index).
     * Inside fulfilment's transaction.
     */
    async applyPaidUpgrade(
      order: PaidOrder,
      tx: DbOrTx,
    ): Promise<{ applied: true; key: Key } | { applied: false; reason: string }> {
      const upgraded = await keys.changeTier(
        {
          keyId: order.licenseKeyId,
          ownerId: order.userId,
          from: order.fromTier,
          to: order.toTier,
          reason: 'purchase',
          reference: `order:${order.id}`,
        },
        tx,
      );
      if (!upgraded) {
        return {
          applied: false,
          reason: `The key was no longer a ${order.fromTier} key of the payer when the payment arrived.`,
        };
      }
      await repo.insertPurchasedUpgrade(tx, {
        userId: order.userId,
        licenseKeyId: order.licenseKeyId,
        licenseKey: order.licenseKey,
        path: order.path,
        fromTier: order.fromTier,
        toTier: order.toTier,
        source: order.provider.startsWith('paypal') ? 'paypal' : 'card',
        orderId: order.id,
        amountPaidCents: order.totalAmountCents,
        subtotalCents: order.baseAmountCents,
        vatAmountCents: order.vatAmountCents,
        vatRateBp: order.vatRateBp,
        reverseCharge: order.reverseCharge,
        currency: order.currency,
        paymentCompletedAt: order.paymentCompletedAt,
      });
      return { applied: true, key: upgraded };
    },

    /**
     * A refunded order: its record becomes refunded and the tier goes back when nothing changed since (the key is
     * still the payer's and still at the tier the order gave it). Inside the refund's transaction.
     */
    async revertPaidUpgrade(
      order: PaidOrder,
      tx: DbOrTx,
      reason: 'refund' | 'dispute' = 'refund',
    ): Promise<{ recordRefunded: boolean; tierReverted: boolean }> {
      const record = await repo.markPurchaseRefunded(tx, order.id);
      if (!record) return { recordRefunded: false, tierReverted: false };
      const reverted = await keys.changeTier(
        {
          keyId: order.licenseKeyId,
          ownerId: order.userId,
          from: order.toTier,
          to: order.fromTier,
          reason,
          reference: `order:${order.id}`,
        },
        tx,
      );
      return { recordRefunded: true, tierReverted: reverted !== null };
    },

    /**
     * A dispute the seller won after its funds were withdrawn (issue 19): the upgrade taken back at the withdrawal is
     * given again when the key is still the payer's and still at the order's `from` tier, and its record is in force
     * again. Inside the dispute's transaction.
     */
    async reapplyPaidUpgrade(order: PaidOrder, tx: DbOrTx): Promise<{ reapplied: boolean }> {
      const raised = await keys.changeTier(
        {
          keyId: order.licenseKeyId,
          ownerId: order.userId,
          from: order.fromTier,
          to: order.toTier,
          reason: 'dispute',
          reference: `order:${order.id}`,
        },
        tx,
      );
      if (!raised) return { reapplied: false };
      await repo.markPurchaseCompleted(tx, order.id);
      return { reapplied: true };
    },

    /** §7 GET /keys/check_purchased_upgrades: the caller's upgrades, by source. */
    async listPurchased(userId: number) {
      const rows = await repo.listPurchasedUpgrades(db, userId);
      const records = rows.map(toPurchasedUpgrade);
      const tokens = (path: UpgradePath) =>
        records.filter((record, index) => rows[index]!.source === 'token' && rows[index]!.path === path);
      return {
        stripe_upgrades: records.filter((record) => record.source !== 'token'),
        l2p_upgrade_tokens: tokens('LITE_TO_PRO'),
        lite_upgrade_tokens: tokens('LITE_TO_REGULAR'),
        regular_upgrade_tokens: tokens('REGULAR_TO_PRO'),
      };
    },
  };

  async function toStaffTokens(rows: repo.UpgradeTokenRow[]): Promise<StaffUpgradeToken[]> {
    const ids = rows.flatMap((row) => [row.createdBy, row.usedBy]).filter((id): id is number => id !== null);
    const emails = await auth.emailsOf([...new Set(ids)]);
    const emailOf = (id: number | null) => (id === null ? null : (emails.get(id) ?? null));
    return rows.map((row) => ({
      id: row.id,
      path: row.path,
      hint: row.tokenHint,
      status: tokenStatus(row),
      created_at: row.createdAt.toISOString(),
      created_by_email: emailOf(row.createdBy),
      used_at: row.usedAt?.toISOString() ?? null,
      used_by_email: emailOf(row.usedBy),
      revoked_at: row.revokedAt?.toISOString() ?? null,
    }));
  }

  /** Why a token could not be spent: of another path, already used, or not a token at all. */
}
export type UpgradesService = ReturnType<typeof createUpgradesService>;

function tokenStatus(row: repo.UpgradeTokenRow): UpgradeTokenStatus {
  return row.revokedAt ? 'revoked' : row.usedAt ? 'used' : 'unused';
}

function toPurchasedUpgrade(row: repo.PurchasedUpgradeRow): PurchasedUpgrade {
  return {
    id: row.id,
    license_key: row.licenseKey,
    upgrade_from: row.fromTier,
    upgrade_to: row.toTier,
    status: row.status,
    processed: true,
    source: row.source,
    amount_paid: row.amountPaidCents,
    subtotal: row.subtotalCents,
    vat_amount: row.vatAmountCents,
    vat_rate: row.vatRateBp / 100,
    reverse_charge: row.reverseCharge,
    currency: row.currency,
    created_at: row.createdAt.toISOString(),
    payment_completed_at: row.paymentCompletedAt?.toISOString() ?? null,
    processing_error: null,
    upgrade_processed_at: row.upgradeProcessedAt.toISOString(),
    invoice_url: row.orderId === null ? null : `/upgrades/orders/${row.orderId}/receipt`,
  };
}
