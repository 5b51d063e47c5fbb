/** modules/upgrades: upgrade prices, upgrade tokens, purchased upgrades. */
import { sql } from 'drizzle-orm';
import { boolean, check, index, integer, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { users } from './auth';
import { createdAt, tierEnum, upgradePathEnum } from './columns';
import { licenseKeys } from './keys';
import { orders } from './payments';

/** The price catalogue of paid upgrades (modules/upgrades): one row per path, amounts in cents. */
export const upgradePrices = pgTable(
  'upgrade_prices',
  {
    path: upgradePathEnum('path').primaryKey(),
    amountCents: integer('amount_cents').notNull(),
    currency: text('currency').notNull().default('usd'),
    /** The payment provider's price id for this path; null: the option cannot be bought. */
    providerPriceId: text('provider_price_id'),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    updatedBy: integer('updated_by').references(() => users.id, { onDelete: 'set null' }),
  },
  (t) => [
    check('upgrade_prices_amount_positive', sql`${t.amountCents} > 0`),
    check('upgrade_prices_currency_usd', sql`${t.currency} = 'usd'`),
    uniqueIndex('upgrade_prices_provider_price_id_unique').on(t.providerPriceId),
  ],
);

/** Single-use upgrade tokens minted by staff (modules/upgrades). Only a SHA-256 of the token is stored. */
export const upgradeTokens = pgTable(
  'upgrade_tokens',
  {
    id: serial('id').primaryKey(),
    path: upgradePathEnum('path').notNull(),
    tokenHash: text('token_hash').notNull().unique(),
    /** The token's last group of 5 characters (of its 25 random ones), so staff can tell tokens apart; null before. */
    tokenHint: text('token_hint'),
    createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    usedBy: integer('used_by').references(() => users.id, { onDelete: 'set null' }),
    usedOnKeyId: integer('used_on_key_id').references(() => licenseKeys.id, { onDelete: 'set null' }),
    /** Set by staff on an unused token (issue 12): a revoked token never redeems. */
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    revokedBy: integer('revoked_by').references(() => users.id, { onDelete: 'set null' }),
  },
  (t) => [
    index('upgrade_tokens_used_by_idx').on(t.usedBy),
    check('upgrade_tokens_used_or_revoked', sql`${t.usedAt} is null or ${t.revokedAt} is null`),
  ],
);

/** Every upgrade a person got, paid or redeemed (modules/upgrades): §3 "Purchased upgrade record". */
export const purchasedUpgrades = pgTable(
  'purchased_upgrades',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'restrict' }),
    licenseKeyId: integer('license_key_id')
      .notNull()
      .references(() => licenseKeys.id, { onDelete: 'restrict' }),
    licenseKey: text('license_key').notNull(),
    path: upgradePathEnum('path').notNull(),
    fromTier: tierEnum('from_tier').notNull(),
    toTier: tierEnum('to_tier').notNull(),
    source: text('source').$type<'card' | 'paypal' | 'token'>().notNull(),
    orderId: integer('order_id')
      .unique()
      .references(() => orders.id, { onDelete: 'restrict' }),
    tokenId: integer('token_id')
      .unique()
      .references(() => upgradeTokens.id, { onDelete: 'restrict' }),
    /** What was paid, copied from the order (0 for a token): the record stands on its own. */
    amountPaidCents: integer('amount_paid_cents').notNull().default(0),
    subtotalCents: integer('subtotal_cents').notNull().default(0),
    vatAmountCents: integer('vat_amount_cents').notNull().default(0),
    vatRateBp: integer('vat_rate_bp').notNull().default(0),
    reverseCharge: boolean('reverse_charge').notNull().default(false),
    currency: text('currency').notNull().default('usd'),
    status: text('status').$type<'completed' | 'refunded'>().notNull().default('completed'),
    paymentCompletedAt: timestamp('payment_completed_at', { withTimezone: true }),
    createdAt: createdAt(),
    upgradeProcessedAt: timestamp('upgrade_processed_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check('purchased_upgrades_one_source', sql`(${t.orderId} is null) <> (${t.tokenId} is null)`),
    check('purchased_upgrades_status', sql`${t.status} in ('completed', 'refunded')`),
    index('purchased_upgrades_user_idx').on(t.userId, t.id),
  ],
);
