/** modules/credits: the credit ledger, redeem products and redemptions, credit packs, store reports. */
import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  index,
  integer,
  pgTable,
  primaryKey,
  serial,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { users } from './auth';
import { createdAt, tierEnum } from './columns';
import { licenseKeys } from './keys';

/**
 * Credits (modules/credits, issue 11). One account row per user that ever held credits: `balance` is what can be
 * spent (never below zero: a check and conditional updates), `owed` what a clawback could not take because the
 * credit was already spent (redeeming is refused while anything is owed; the next credits added repay it first).
 */
export const creditAccounts = pgTable(
  'credit_accounts',
  {
    userId: integer('user_id')
      .primaryKey()
      .references(() => users.id, { onDelete: 'restrict' }),
    balance: integer('balance').notNull().default(0),
    owed: integer('owed').notNull().default(0),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check('credit_accounts_balance_not_negative', sql`${t.balance} >= 0`),
    check('credit_accounts_owed_not_negative', sql`${t.owed} >= 0`),
    check('credit_accounts_not_both', sql`${t.balance} = 0 or ${t.owed} = 0`),
  ],
);

export type CreditLedgerKind = 'grant' | 'debit' | 'purchase' | 'clawback';

/**
 * Every credit movement, append-only (a trigger refuses UPDATE and DELETE). `amount` is the signed change of the
 * account's net credits (balance minus owed); `balance_after` and `owed_after` are the account after it.
 * `source_ref` is unique: 'report:12', 'report:12:clawback', 'order:34', 'order:34:refund', 'redeem:56',
 * 'staff:<uuid>', so one source never moves credits twice.
 */
export const creditLedger = pgTable(
  'credit_ledger',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'restrict' }),
    kind: text('kind').$type<CreditLedgerKind>().notNull(),
    amount: integer('amount').notNull(),
    balanceAfter: integer('balance_after').notNull(),
    owedAfter: integer('owed_after').notNull(),
    sourceRef: text('source_ref').notNull(),
    /** For people: the staff member's note, the product redeemed, the report. */
    note: text('note'),
    /** The staff member who granted or removed credits by hand. */
    actorId: integer('actor_id').references(() => users.id, { onDelete: 'restrict' }),
    createdAt: createdAt(),
  },
  (t) => [
    check('credit_ledger_kind', sql`${t.kind} in ('grant', 'debit', 'purchase', 'clawback')`),
    check('credit_ledger_amount_not_zero', sql`${t.amount} <> 0`),
    check(
      'credit_ledger_sign',
      sql`(${t.kind} in ('grant', 'purchase') and ${t.amount} > 0) or (${t.kind} in ('debit', 'clawback') and ${t.amount} < 0)`,
    ),
    check('credit_ledger_after_not_negative', sql`${t.balanceAfter} >= 0 and ${t.owedAfter} >= 0`),
    uniqueIndex('credit_ledger_source_ref_unique').on(t.sourceRef),
    index('credit_ledger_user_idx').on(t.userId, t.id),
  ],
);

/** §3 "Redeem product": what credits buy, managed by staff. Only `license_level` products are offered (§5). */
export const redeemProducts = pgTable(
  'redeem_products',
  {
    id: serial('id').primaryKey(),
    name: text('name').notNull(),
    description: text('description').notNull().default(''),
    grantType: text('grant_type').notNull(),
    grantValue: text('grant_value').notNull(),
    costCredits: integer('cost_credits').notNull(),
    /** Retired products stay (redemptions refer to them) but are no longer offered. */
    active: boolean('active').notNull().default(true),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [check('redeem_products_cost_positive', sql`${t.costCredits} > 0`)],
);

/** A license bought with credits: the debit that paid for it and the key it minted, in one transaction. */
export const creditRedemptions = pgTable(
  'credit_redemptions',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'restrict' }),
    redeemProductId: integer('redeem_product_id')
      .notNull()
      .references(() => redeemProducts.id, { onDelete: 'restrict' }),
    costCredits: integer('cost_credits').notNull(),
    tier: tierEnum('tier').notNull(),
    licenseKeyId: integer('license_key_id')
      .notNull()
      .unique()
      .references(() => licenseKeys.id, { onDelete: 'restrict' }),
    ledgerId: integer('ledger_id')
      .notNull()
      .unique()
      .references(() => creditLedger.id, { onDelete: 'restrict' }),
    createdAt: createdAt(),
  },
  (t) => [
    check('credit_redemptions_cost_positive', sql`${t.costCredits} > 0`),
    index('credit_redemptions_user_idx').on(t.userId, t.id),
  ],
);

/** Packs of credits team members buy by card or PayPal (priced by staff; `provider_price_id` as upgrade prices). */
export const creditPacks = pgTable(
  'credit_packs',
  {
    id: serial('id').primaryKey(),
    name: text('name').notNull(),
    credits: integer('credits').notNull(),
    amountCents: integer('amount_cents').notNull(),
    providerPriceId: text('provider_price_id'),
    active: boolean('active').notNull().default(true),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check('credit_packs_credits_positive', sql`${t.credits} > 0`),
    check('credit_packs_amount_positive', sql`${t.amountCents} > 0`),
  ],
);

export type StoreReportStatus = 'pending' | 'approved' | 'rejected';

/** A report of 5 stores running unlicensed copies (§1, §9): 1 credit at once, then reviewed by staff. */
export const storeReports = pgTable(
  'store_reports',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'restrict' }),
    status: text('status').$type<StoreReportStatus>().notNull().default('pending'),
    reviewedBy: integer('reviewed_by').references(() => users.id, { onDelete: 'restrict' }),
    reviewedAt: timestamp('reviewed_at', { withTimezone: true }),
    reviewNote: text('review_note'),
    createdAt: createdAt(),
  },
  (t) => [
    check('store_reports_status', sql`${t.status} in ('pending', 'approved', 'rejected')`),
    check('store_reports_reviewed', sql`(${t.status} = 'pending') = (${t.reviewedAt} is null)`),
    index('store_reports_status_idx').on(t.status, t.id),
    index('store_reports_user_idx').on(t.userId, t.id),
  ],
);

/**
 * The five domains of a report, normalised (shared domain rules). Unique per reporter: a domain is reported once by
 * each user, and the same report sent twice at once grants one credit (the second insert conflicts).
 */
export const storeReportDomains = pgTable(
  'store_report_domains',
  {
    reportId: integer('report_id')
      .notNull()
      .references(() => storeReports.id, { onDelete: 'restrict' }),
    position: integer('position').notNull(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'restrict' }),
    /** As the person typed it. */
    submitted: text('submitted').notNull(),
    domain: text('domain').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.reportId, t.position] }),
    check('store_report_domains_position', sql`${t.position} between 0 and 4`),
    uniqueIndex('store_report_domains_user_domain_unique').on(t.userId, t.domain),
    index('store_report_domains_domain_idx').on(t.domain),
  ],
);
