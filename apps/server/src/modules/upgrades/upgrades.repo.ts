import { and, asc, desc, eq, gt, isNotNull, isNull, lt, sql, type SQL } from 'drizzle-orm';
import type { UpgradePath } from '@keyport/shared/domain/upgrade-paths';
import type { DbOrTx } from '../../db/client';
import { purchasedUpgrades, upgradePrices, upgradeTokens } from '../../db/schema';

export type UpgradePriceRow = typeof upgradePrices.$inferSelect;
export type PurchasedUpgradeRow = typeof purchasedUpgrades.$inferSelect;

export function listPrices(db: DbOrTx) {
  return db.select().from(upgradePrices).orderBy(asc(upgradePrices.path));
}

export function findPrice(db: DbOrTx, path: UpgradePath) {
  return db
    .select()
    .from(upgradePrices)
    .where(eq(upgradePrices.path, path))
    .then((rows) => rows[0] ?? null);
}

/** Seeds the catalogue: paths that already have a price keep it. */
export async function insertMissingPrices(db: DbOrTx, rows: (typeof upgradePrices.$inferInsert)[]) {
  if (rows.length === 0) return;
  await db.insert(upgradePrices).values(rows).onConflictDoNothing();
}

/** Sets a path's amount and provider price id (one statement per path; the caller runs them in a transaction). */
export async function upsertPrice(
  db: DbOrTx,
  values: { path: UpgradePath; amountCents: number; providerPriceId: string | null; updatedBy: number },
) {
  await db
    .insert(upgradePrices)
    .values({ ...values, updatedAt: sql`now()` })
    .onConflictDoUpdate({
      target: upgradePrices.path,
      set: {
        amountCents: sql`excluded.amount_cents`,
        providerPriceId: sql`excluded.provider_price_id`,
        updatedBy: sql`excluded.updated_by`,
        updatedAt: sql`now()`,
      },
    });
}

export async function insertTokens(
  db: DbOrTx,
  path: UpgradePath,
  tokens: { tokenHash: string; tokenHint: string }[],
  createdBy: number,
) {
  return db
    .insert(upgradeTokens)
    .values(tokens.map((token) => ({ path, ...token, createdBy })))
    .onConflictDoNothing()
    .returning({ id: upgradeTokens.id, tokenHash: upgradeTokens.tokenHash });
}

export type UpgradeTokenRow = typeof upgradeTokens.$inferSelect;
export type TokenState = 'unused' | 'used' | 'revoked';

const TOKEN_STATES: Record<TokenState, SQL> = {
  unused: and(isNull(upgradeTokens.usedAt), isNull(upgradeTokens.revokedAt))!,
  used: isNotNull(upgradeTokens.usedAt),
  revoked: isNotNull(upgradeTokens.revokedAt),
};

/** Staff's list: newest first (`order` 'desc'), `limit` rows past the cursor id `afterId` in that order. */
export function listTokens(
  db: DbOrTx,
  filters: { state?: TokenState; path?: UpgradePath; afterId: number | null; order: 'asc' | 'desc'; limit: number },
) {
  const ascending = filters.order === 'asc';
  return db
    .select()
    .from(upgradeTokens)
    .where(
      and(
        filters.state ? TOKEN_STATES[filters.state] : undefined,
        filters.path ? eq(upgradeTokens.path, filters.path) : undefined,
        filters.afterId === null ? undefined : (ascending ? gt : lt)(upgradeTokens.id, filters.afterId),
      ),
    )
    .orderBy(ascending ? asc(upgradeTokens.id) : desc(upgradeTokens.id))
    .limit(filters.limit);
}

export function findTokenById(db: DbOrTx, id: number) {
  return db
    .select()
    .from(upgradeTokens)
    .where(eq(upgradeTokens.id, id))
    .then((rows) => rows[0] ?? null);
}

/** Revokes an unused token, once: null when it does not exist, was used or was revoked already. */
export function revokeToken(db: DbOrTx, id: number, staffId: number) {
  return db
    .update(upgradeTokens)
    .set({ revokedAt: sql`now()`, revokedBy: staffId })
    .where(and(eq(upgradeTokens.id, id), TOKEN_STATES.unused))
    .returning()
    .then((rows) => rows[0] ?? null);
}

/**
 * Spends a token, once: of any number of people redeeming it at the same moment, the `used_at IS NULL` condition
 * lets exactly one win. Null when the token does not exist, is of another path, or was used.
 */
export function spendToken(db: DbOrTx, input: { tokenHash: string; path: UpgradePath; userId: number; keyId: number }) {
  return db
    .update(upgradeTokens)
    .set({ usedAt: sql`now()`, usedBy: input.userId, usedOnKeyId: input.keyId })
    .where(
      and(
        eq(upgradeTokens.tokenHash, input.tokenHash),
        eq(upgradeTokens.path, input.path),
        isNull(upgradeTokens.usedAt),
        isNull(upgradeTokens.revokedAt),
      ),
    )
    .returning({ id: upgradeTokens.id })
    .then((rows) => rows[0] ?? null);
}

export function findToken(db: DbOrTx, tokenHash: string) {
  return db
    .select({
      id: upgradeTokens.id,
      path: upgradeTokens.path,
      usedAt: upgradeTokens.usedAt,
      revokedAt: upgradeTokens.revokedAt,
    })
    .from(upgradeTokens)
    .where(eq(upgradeTokens.tokenHash, tokenHash))
    .then((rows) => rows[0] ?? null);
}

export function insertPurchasedUpgrade(db: DbOrTx, values: typeof purchasedUpgrades.$inferInsert) {
  return db
    .insert(purchasedUpgrades)
    .values(values)
    .returning()
    .then((rows) => rows[0]!);
}

/** Marks the record of a paid order refunded; null when there is none, or it already was. */
export function markPurchaseRefunded(db: DbOrTx, orderId: number) {
  return db
    .update(purchasedUpgrades)
    .set({ status: 'refunded' })
    .where(and(eq(purchasedUpgrades.orderId, orderId), eq(purchasedUpgrades.status, 'completed')))
    .returning()
    .then((rows) => rows[0] ?? null);
}

/** The record of a paid order is in force again (a dispute won after its funds were withdrawn). */
export async function markPurchaseCompleted(db: DbOrTx, orderId: number) {
  await db
    .update(purchasedUpgrades)
    .set({ status: 'completed' })
    .where(and(eq(purchasedUpgrades.orderId, orderId), eq(purchasedUpgrades.status, 'refunded')));
}

export function listPurchasedUpgrades(db: DbOrTx, userId: number) {
  return db
    .select()
    .from(purchasedUpgrades)
    .where(eq(purchasedUpgrades.userId, userId))
    .orderBy(asc(purchasedUpgrades.id));
}
