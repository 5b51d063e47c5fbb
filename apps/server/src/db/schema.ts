import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  check,
  date,
  type AnyPgColumn,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgEnum,
  pgTable,
  primaryKey,
  serial,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import type { HomepageUpdate } from '@keyport/shared/contracts/homepage';
import type { MigrationMap } from '@keyport/shared/contracts/migration-map';

const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();

export const tierEnum = pgEnum('tier', ['LITE', 'REGULAR', 'PRO']);

export const users = pgTable(
  'users',
  {
    id: serial('id').primaryKey(),
    email: text('email').notNull(),
    name: text('name').notNull(),
    passwordHash: text('password_hash').notNull(),
    /** null for customers; e.g. 'team' or 'staff'. */
    role: text('role'),
    /** true, false, an ISO date string, or null (unset: derived from the newest order). */
    hasLifetimeSupport: jsonb('has_lifetime_support').$type<boolean | string | null>(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('users_email_lower_unique').on(sql`lower(${t.email})`)],
);

export const sessions = pgTable(
  'sessions',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** SHA-256 of the token; the token itself is never stored. */
    tokenHash: text('token_hash').notNull().unique(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('sessions_user_idx').on(t.userId)],
);

export const passwordResets = pgTable('password_resets', {
  id: serial('id').primaryKey(),
  userId: integer('user_id')
    .notNull()
    .references(() => users.id, { onDelete: 'cascade' }),
  tokenHash: text('token_hash').notNull().unique(),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  usedAt: timestamp('used_at', { withTimezone: true }),
  createdAt: createdAt(),
});

export const licenseKeys = pgTable(
  'license_keys',
  {
    id: serial('id').primaryKey(),
    apiKey: text('api_key').notNull().unique(),
    /**
     * Issue 13 (ADR 030): the key's opaque public id, the `sub` of its theme tokens (a token never carries the license
     * key itself). Random, filled for existing keys by the migration's volatile default.
     */
    publicId: uuid('public_id').notNull().unique().defaultRandom(),
    tier: tierEnum('tier').notNull(),
    /** null while the key is unclaimed. */
    ownerId: integer('owner_id').references(() => users.id, { onDelete: 'set null' }),
    linkedAppStore: text('linked_app_store'),
    mainUrl: text('main_url'),
    myshopify: text('myshopify'),
    secondaryUrl: text('secondary_url'),
    claimedAt: timestamp('claimed_at', { withTimezone: true }),
    /** The latest theme auth token (a signed JWT); shown again to the owner only. */
    authToken: text('auth_token'),
    /** Bumped on every new token, so older tokens can be told apart. */
    tokenVersion: integer('token_version').notNull().default(0),
    tokenIssuedAt: timestamp('token_issued_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    index('license_keys_owner_idx').on(t.ownerId, t.id),
    // The store-report rule "the store holds a license of ours" looks keys up by each domain (modules/credits), and
    // the staff customer search by the start of one (issue 12, ADR 027): text_pattern_ops serves both = and LIKE 'x%'
    // whatever the database's collation.
    index('license_keys_main_url_pattern_idx').on(t.mainUrl.op('text_pattern_ops')),
    index('license_keys_myshopify_pattern_idx').on(t.myshopify.op('text_pattern_ops')),
    index('license_keys_secondary_url_pattern_idx').on(t.secondaryUrl.op('text_pattern_ops')),
    index('license_keys_linked_app_store_pattern_idx').on(t.linkedAppStore.op('text_pattern_ops')),
  ],
);

export const orders = pgTable(
  'orders',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    description: text('description').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('orders_user_idx').on(t.userId)],
);

export const userStores = pgTable(
  'user_stores',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    myshopifyDomain: text('myshopify_domain').notNull(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('user_stores_user_domain_unique').on(t.userId, t.myshopifyDomain)],
);

/**
 * Every email the portal sends, written in the caller's transaction (integrations/email/outbox.ts). A `email.send`
 * job (modules/jobs) delivers it after commit: claimed by one process, retried with backoff, dead-lettered for staff.
 * `sent_at` is set once the SMTP server (or the log adapter) took it.
 */
export const emailOutbox = pgTable('email_outbox', {
  id: serial('id').primaryKey(),
  to: text('to').notNull(),
  subject: text('subject').notNull(),
  body: text('body').notNull(),
  sentAt: timestamp('sent_at', { withTimezone: true }),
  createdAt: createdAt(),
});

/** The dashboard's updates feed (§3 "Homepage data"): one row (id 1), what customers see and the staff draft. */
export const homepageSettings = pgTable(
  'homepage_settings',
  {
    id: integer('id').primaryKey().default(1),
    published: jsonb('published').$type<HomepageUpdate[]>().notNull().default([]),
    draft: jsonb('draft').$type<HomepageUpdate[]>().notNull().default([]),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    updatedBy: integer('updated_by').references(() => users.id, { onDelete: 'set null' }),
  },
  (t) => [check('homepage_settings_single_row', sql`${t.id} = 1`)],
);

/** A theme release per edition: the zip lives in the storage port under `storageKey`. */
export const releases = pgTable(
  'releases',
  {
    id: serial('id').primaryKey(),
    edition: tierEnum('edition').notNull(),
    version: text('version').notNull(),
    notes: text('notes').notNull().default(''),
    themeName: text('theme_name'),
    storageKey: text('storage_key').notNull(),
    sizeBytes: bigint('size_bytes', { mode: 'number' }).notNull(),
    createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    /**
     * Every file of the zip (theme-relative path) → its sha256 (hex), computed at upload (issue 10). Null for a
     * release stored before: filled in when it is first read (modules/releases).
     */
    manifest: jsonb('manifest').$type<Record<string, string>>(),
    /**
     * What this version renamed since the previous one (settings, colour schemes, sections, blocks), uploaded by staff
     * with the release and checked against its files (issue 20); theme-file upgrades move merchants' values by it.
     */
    migrationMap: jsonb('migration_map').$type<MigrationMap>(),
  },
  (t) => [
    uniqueIndex('releases_edition_version_unique').on(t.edition, t.version),
    index('releases_edition_idx').on(t.edition, t.id),
  ],
);

/**
 * The release customers get for an edition, chosen by staff (issue 12): at most one per edition (the primary key).
 * No row: the edition's newest version is served, as before.
 */
export const releaseCurrent = pgTable('release_current', {
  edition: tierEnum('edition').primaryKey(),
  releaseId: integer('release_id')
    .notNull()
    .references(() => releases.id, { onDelete: 'cascade' }),
  setBy: integer('set_by').references(() => users.id, { onDelete: 'set null' }),
  setAt: timestamp('set_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * One row per download that opened a release zip (issue 12): which key took which version, and the store the key was
 * connected to then. "Which stores run which version" is each key's newest row.
 */
export const releaseDownloads = pgTable(
  'release_downloads',
  {
    id: serial('id').primaryKey(),
    releaseId: integer('release_id')
      .notNull()
      .references(() => releases.id, { onDelete: 'cascade' }),
    edition: tierEnum('edition').notNull(),
    version: text('version').notNull(),
    keyId: integer('key_id').notNull(),
    userId: integer('user_id').references(() => users.id, { onDelete: 'set null' }),
    /** The key's store then: its myshopify domain, else its website, else its linked app store; null if unconnected. */
    store: text('store'),
    via: text('via', { enum: ['link', 'token', 'proxy'] }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    index('release_downloads_key_idx').on(t.keyId, t.id),
    index('release_downloads_edition_idx').on(t.edition, t.id),
  ],
);

// ——— Upgrades and payments (issue 8). Owners: docs/architecture.md. ———

export const upgradePathEnum = pgEnum('upgrade_path', ['LITE_TO_REGULAR', 'REGULAR_TO_PRO', 'LITE_TO_PRO']);

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

/**
 * A paid order (modules/payments): an upgrade of one key (`kind` 'upgrade') or a pack of credits (`kind`
 * 'credit_pack', issue 11): the amounts the server computed, the billing snapshot and VAT evidence, and the
 * provider's payment. At most one pending upgrade order per key and one pending credit-pack order per user. The table
 * keeps its first name (ADR 022).
 */
export const upgradeOrders = pgTable(
  'upgrade_orders',
  {
    id: serial('id').primaryKey(),
    kind: text('kind').$type<OrderKind>().notNull().default('upgrade'),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'restrict' }),
    /** Upgrade orders only (null on a credit pack). */
    licenseKeyId: integer('license_key_id').references(() => licenseKeys.id, { onDelete: 'restrict' }),
    /** The license key text at the time of the order (the receipt shows it). Upgrade orders only. */
    licenseKey: text('license_key'),
    path: upgradePathEnum('path'),
    fromTier: tierEnum('from_tier'),
    toTier: tierEnum('to_tier'),
    /** Credit-pack orders only: the pack and the credits it grants (a snapshot: staff may reprice the pack). */
    creditPackId: integer('credit_pack_id').references((): AnyPgColumn => creditPacks.id, { onDelete: 'restrict' }),
    credits: integer('credits'),
    priceId: text('price_id').notNull(),
    currency: text('currency').notNull().default('usd'),
    baseAmountCents: integer('base_amount_cents').notNull(),
    vatAmountCents: integer('vat_amount_cents').notNull(),
    totalAmountCents: integer('total_amount_cents').notNull(),
    /** Basis points: 1900 is 19 %, 770 is 7.7 %. */
    vatRateBp: integer('vat_rate_bp').notNull(),
    reverseCharge: boolean('reverse_charge').notNull(),
    /** Name, email, address, business flag and company, as entered. */
    billing: jsonb('billing').$type<BillingSnapshot>().notNull(),
    /** The VIES-valid VAT ID reverse charge relied on, with its evidence. */
    vatId: text('vat_id'),
    vatCountry: text('vat_country'),
    vatConsultationNumber: text('vat_consultation_number'),
    vatCheckedAt: timestamp('vat_checked_at', { withTimezone: true }),
    provider: text('provider').notNull(),
    providerPaymentId: text('provider_payment_id'),
    status: text('status').$type<UpgradeOrderStatus>().notNull().default('pending'),
    /** Why a paid order was not (or no longer) applied: a person looks at these. */
    processingError: text('processing_error'),
    /** The last decline the provider reported (the order stays pending: the person may try another card). */
    lastPaymentError: text('last_payment_error'),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    paymentCompletedAt: timestamp('payment_completed_at', { withTimezone: true }),
    upgradeProcessedAt: timestamp('upgrade_processed_at', { withTimezone: true }),
    refundedAt: timestamp('refunded_at', { withTimezone: true }),
    /**
     * Issue 19 (ADR 035): the buyer's dispute (chargeback) of the payment, as the provider last reported it, and the
     * provider's id of it. Null when the payment was never disputed.
     */
    disputeState: text('dispute_state').$type<DisputeState>(),
    disputeRef: text('dispute_ref'),
  },
  (t) => [
    check('upgrade_orders_total', sql`${t.totalAmountCents} = ${t.baseAmountCents} + ${t.vatAmountCents}`),
    check('upgrade_orders_amounts', sql`${t.baseAmountCents} > 0 and ${t.vatAmountCents} >= 0`),
    check(
      'upgrade_orders_status',
      sql`${t.status} in ('pending', 'capturing', 'superseded', 'void', 'expired', 'completed', 'needs_refund', 'review', 'refunded', 'disputed', 'charged_back')`,
    ),
    check(
      'upgrade_orders_dispute_state',
      sql`${t.disputeState} is null or ${t.disputeState} in ('open', 'funds_withdrawn', 'won', 'lost')`,
    ),
    check(
      'upgrade_orders_kind_fields',
      sql`(${t.kind} = 'upgrade' and ${t.licenseKeyId} is not null and ${t.licenseKey} is not null
            and ${t.path} is not null and ${t.fromTier} is not null and ${t.toTier} is not null
            and ${t.creditPackId} is null and ${t.credits} is null)
       or (${t.kind} = 'credit_pack' and ${t.creditPackId} is not null and ${t.credits} > 0
            and ${t.licenseKeyId} is null and ${t.path} is null)`,
    ),
    uniqueIndex('upgrade_orders_provider_payment_unique').on(t.provider, t.providerPaymentId),
    // One open order per key (per user for packs): waiting for its payment, or claimed for capture (ADR 035).
    uniqueIndex('upgrade_orders_one_pending_per_key')
      .on(t.licenseKeyId)
      .where(sql`${t.status} in ('pending', 'capturing') and ${t.kind} = 'upgrade'`),
    uniqueIndex('upgrade_orders_one_pending_credit_pack_per_user')
      .on(t.userId)
      .where(sql`${t.status} in ('pending', 'capturing') and ${t.kind} = 'credit_pack'`),
    // The sweeper's look-ups (abandoned pending orders, stale captures).
    index('upgrade_orders_status_updated_idx').on(t.status, t.updatedAt),
    index('upgrade_orders_user_idx').on(t.userId, t.id),
  ],
);

export type OrderKind = 'upgrade' | 'credit_pack';

/** Webhook deliveries already processed, per provider (modules/payments): the dedupe of replays. */
export const paymentWebhookEvents = pgTable(
  'payment_webhook_events',
  {
    provider: text('provider').notNull(),
    eventId: text('event_id').notNull(),
    type: text('type').notNull(),
    processedAt: timestamp('processed_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.provider, t.eventId] })],
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
      .references(() => upgradeOrders.id, { onDelete: 'restrict' }),
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

/** Every change of a key's tier, with why (modules/keys): the audit trail. */
export const licenseKeyTierChanges = pgTable(
  'license_key_tier_changes',
  {
    id: serial('id').primaryKey(),
    licenseKeyId: integer('license_key_id')
      .notNull()
      .references(() => licenseKeys.id, { onDelete: 'cascade' }),
    fromTier: tierEnum('from_tier').notNull(),
    toTier: tierEnum('to_tier').notNull(),
    /** 'purchase', 'token' or 'refund'. */
    reason: text('reason').notNull(),
    /** What caused it: 'order:12', 'token:7'. */
    reference: text('reference').notNull(),
    actorUserId: integer('actor_user_id').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (t) => [index('license_key_tier_changes_key_idx').on(t.licenseKeyId, t.id)],
);

/** VIES answers, cached for a day (modules/billing). Only definite answers (valid, invalid) are kept. */
export const vatChecks = pgTable('vat_checks', {
  vatNumber: text('vat_number').primaryKey(),
  valid: boolean('valid').notNull(),
  countryCode: text('country_code'),
  companyName: text('company_name'),
  companyAddress: text('company_address'),
  consultationNumber: text('consultation_number'),
  checkedAt: timestamp('checked_at', { withTimezone: true }).notNull(),
});

/**
 * VAT rates staff added (modules/billing, issue 19, ADR 036): from `valid_from` (inclusive) the country's standard rate
 * is `rate_bp`. They extend the rate table the code carries (the §9 baseline and the cited changes); between rows with
 * the same start the one added last wins. Rows are never changed: a correction is a new row. Each is audited.
 */
export const vatRates = pgTable(
  'vat_rates',
  {
    id: serial('id').primaryKey(),
    country: text('country').notNull(),
    rateBp: integer('rate_bp').notNull(),
    validFrom: date('valid_from', { mode: 'string' }).notNull(),
    createdAt: createdAt(),
    createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
    reason: text('reason').notNull(),
  },
  (t) => [
    check('vat_rates_country', sql`${t.country} ~ '^[A-Z]{2}$'`),
    check('vat_rates_rate', sql`${t.rateBp} between 0 and 10000`),
    index('vat_rates_country_idx').on(t.country, t.validFrom),
  ],
);

/**
 * The sandbox payment provider's own payments (integrations/payments/sandbox-adapter): what Stripe would keep on its
 * side. Nothing else reads it.
 */
export const sandboxPayments = pgTable('sandbox_payments', {
  id: text('id').primaryKey(),
  clientSecret: text('client_secret').notNull(),
  amountCents: integer('amount_cents').notNull(),
  currency: text('currency').notNull(),
  status: text('status').notNull(),
  description: text('description').notNull(),
  metadata: jsonb('metadata').$type<Record<string, string>>().notNull(),
  receiptEmail: text('receipt_email'),
  idempotencyKey: text('idempotency_key').notNull().unique(),
  lastError: text('last_error'),
  refundedCents: integer('refunded_cents').notNull().default(0),
  /** Issue 19: the card holder's dispute of the payment, if any (re-read by the webhook like a dispute at Stripe). */
  dispute: jsonb('dispute').$type<SandboxDispute>(),
  createdAt: createdAt(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * The sandbox wallet's own orders (integrations/wallet/sandbox-adapter): what PayPal would keep on its side (Orders v2
 * statuses, the capture, refunds). Nothing else reads it.
 */
export const sandboxPaypalOrders = pgTable(
  'sandbox_paypal_orders',
  {
    id: text('id').primaryKey(),
    /** The `PayPal-Request-Id` of the create: the same id returns the same order. */
    requestId: text('request_id').notNull().unique(),
    status: text('status').notNull().default('CREATED'),
    amountCents: integer('amount_cents').notNull(),
    currency: text('currency').notNull(),
    description: text('description').notNull(),
    customId: text('custom_id').notNull(),
    invoiceId: text('invoice_id').notNull(),
    returnUrl: text('return_url').notNull(),
    cancelUrl: text('cancel_url').notNull(),
    captureId: text('capture_id').unique(),
    captureStatus: text('capture_status'),
    capturedCents: integer('captured_cents').notNull().default(0),
    refundedCents: integer('refunded_cents').notNull().default(0),
    /** Issue 19: the payer's dispute of the capture, if any (re-read by the webhook like a dispute at PayPal). */
    dispute: jsonb('dispute').$type<SandboxDispute>(),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check('sandbox_paypal_orders_status', sql`${t.status} in ('CREATED', 'APPROVED', 'VOIDED', 'COMPLETED')`),
    check(
      'sandbox_paypal_orders_amounts',
      sql`${t.amountCents} > 0 and ${t.refundedCents} between 0 and ${t.capturedCents}`,
    ),
  ],
);

/**
 * pending: waiting for the payment; capturing: claimed for capture (the upgrade was checked and the key is held, ADR
 * 035); superseded / void / expired: never charged (replaced by a newer quote / no longer applicable or cancelled /
 * abandoned); completed; needs_refund and review: paid but not applied; refunded; disputed; charged_back: a dispute
 * the buyer won.
 */
export type UpgradeOrderStatus =
  | 'pending'
  | 'capturing'
  | 'superseded'
  | 'void'
  | 'expired'
  | 'completed'
  | 'needs_refund'
  | 'review'
  | 'refunded'
  | 'disputed'
  | 'charged_back';

/** A dispute as Keyport tracks it: open, open with the money withdrawn from the seller, or closed (won or lost). */
export type DisputeState = 'open' | 'funds_withdrawn' | 'won' | 'lost';

/** A sandbox provider's stand-in dispute of a payment (what Stripe or PayPal keep on their side). */
export interface SandboxDispute {
  id: string;
  status: 'open' | 'won' | 'lost';
  /** The disputed amount has been taken from the seller (Stripe withdraws it when the dispute opens). */
  fundsWithdrawn: boolean;
  reason: string;
}

export interface BillingSnapshot {
  name: string;
  email: string;
  address: {
    line1: string;
    line2: string | null;
    city: string;
    state: string | null;
    postal_code: string;
    country: string;
  };
  is_business: boolean;
  company_name: string | null;
}

/**
 * The last number given per document series and calendar year (modules/invoices): advanced with one conditional
 * `INSERT … ON CONFLICT DO UPDATE … RETURNING` inside the fulfilment or refund transaction. The row lock serialises
 * issuers; a rolled-back transaction gives its number back, so the series has no gaps.
 */
export const invoiceCounters = pgTable(
  'invoice_counters',
  {
    series: text('series').$type<InvoiceKind>().notNull(),
    year: integer('year').notNull(),
    lastNumber: integer('last_number').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.series, t.year] }),
    check('invoice_counters_series', sql`${t.series} in ('invoice', 'credit_note')`),
    check('invoice_counters_positive', sql`${t.lastNumber} > 0`),
  ],
);

/**
 * Invoices and credit notes (modules/invoices), immutable once issued (a trigger refuses UPDATE and DELETE). Every
 * figure and party is a snapshot: the PDF is rendered from this row, never from the order.
 */
export const invoices = pgTable(
  'invoices',
  {
    id: serial('id').primaryKey(),
    kind: text('kind').$type<InvoiceKind>().notNull(),
    year: integer('year').notNull(),
    sequence: integer('sequence').notNull(),
    /** '2026-000001' for an invoice, 'CN-2026-000001' for a credit note. */
    number: text('number').notNull(),
    orderId: integer('order_id')
      .notNull()
      .references(() => upgradeOrders.id, { onDelete: 'restrict' }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'restrict' }),
    /** The invoice a credit note cancels; null on an invoice. */
    creditedInvoiceId: integer('credited_invoice_id').references((): AnyPgColumn => invoices.id, {
      onDelete: 'restrict',
    }),
    issuedAt: timestamp('issued_at', { withTimezone: true }).notNull(),
    /** When the money arrived (invoice) or went back (credit note). */
    paymentDate: timestamp('payment_date', { withTimezone: true }).notNull(),
    seller: jsonb('seller').$type<InvoiceSeller>().notNull(),
    buyer: jsonb('buyer').$type<InvoiceBuyer>().notNull(),
    lineDescription: text('line_description').notNull(),
    currency: text('currency').notNull(),
    /** Positive on both kinds: a credit note's amounts are what it takes back. */
    subtotalCents: integer('subtotal_cents').notNull(),
    vatRateBp: integer('vat_rate_bp').notNull(),
    vatCents: integer('vat_cents').notNull(),
    totalCents: integer('total_cents').notNull(),
    reverseCharge: boolean('reverse_charge').notNull(),
    buyerVatId: text('buyer_vat_id'),
    vatConsultationNumber: text('vat_consultation_number'),
    provider: text('provider').notNull(),
    providerPaymentId: text('provider_payment_id'),
    /**
     * An EU buyer's document shows its VAT in EUR too (VAT directive art. 230; issue 19, ADR 036): the ECB reference
     * rate of its date (currency units per euro, as published), that rate's own date and its source, and the VAT in
     * euro cents. Filled when issued, or once later by the invoices module when the rate could not be had then (the
     * trigger allows exactly that change); until then its PDF is not served.
     */
    eurLineRequired: boolean('eur_line_required').notNull().default(false),
    eurRate: text('eur_rate'),
    eurRateDate: date('eur_rate_date', { mode: 'string' }),
    eurRateSource: text('eur_rate_source'),
    vatEurCents: integer('vat_eur_cents'),
  },
  (t) => [
    check(
      'invoices_eur_line_complete',
      sql`(${t.eurRate} is null) = (${t.eurRateDate} is null) and (${t.eurRate} is null) = (${t.eurRateSource} is null) and (${t.eurRate} is null) = (${t.vatEurCents} is null)`,
    ),
    check('invoices_eur_rate_format', sql`${t.eurRate} is null or ${t.eurRate} ~ '^[0-9]{1,9}([.][0-9]{1,9})?$'`),
    check('invoices_vat_eur_positive', sql`${t.vatEurCents} is null or ${t.vatEurCents} >= 0`),
    index('invoices_eur_line_pending_idx')
      .on(t.id)
      .where(sql`${t.eurLineRequired} and ${t.eurRate} is null`),
    check('invoices_kind', sql`${t.kind} in ('invoice', 'credit_note')`),
    check('invoices_total', sql`${t.totalCents} = ${t.subtotalCents} + ${t.vatCents}`),
    check('invoices_amounts', sql`${t.subtotalCents} > 0 and ${t.vatCents} >= 0`),
    check('invoices_sequence_positive', sql`${t.sequence} > 0`),
    check('invoices_credit_note_refers', sql`(${t.kind} = 'credit_note') = (${t.creditedInvoiceId} is not null)`),
    check('invoices_reverse_charge_evidence', sql`not ${t.reverseCharge} or ${t.buyerVatId} is not null`),
    uniqueIndex('invoices_kind_year_sequence_unique').on(t.kind, t.year, t.sequence),
    uniqueIndex('invoices_number_unique').on(t.number),
    uniqueIndex('invoices_one_per_order_and_kind').on(t.orderId, t.kind),
    index('invoices_user_idx').on(t.userId, t.issuedAt),
  ],
);

export type InvoiceKind = 'invoice' | 'credit_note';

export interface InvoiceSeller {
  name: string;
  address: string[];
  vatId: string | null;
  email: string | null;
  /** ISO code (SELLER_COUNTRY); absent on documents issued before issue 19. */
  country?: string | null;
}

export interface InvoiceBuyer {
  name: string;
  companyName: string | null;
  email: string;
  /**
   * The address lines as printed: street lines, 'postal code city', state. Documents issued before issue 19 also end
   * with the country code here (and have no `countryName`).
   */
  address: string[];
  country: string;
  /** The country's English name as printed (issue 19). */
  countryName?: string;
  isBusiness: boolean;
  vatId: string | null;
}

/**
 * What happened to money, orders and keys, append-only (modules/audit): a trigger refuses UPDATE and DELETE, and no
 * route edits it. The staff console of a later issue reads it by customer and by action.
 */
export const auditLog = pgTable(
  'audit_log',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
    actorType: text('actor_type').$type<AuditActorType>().notNull(),
    actorId: text('actor_id'),
    action: text('action').notNull(),
    objectType: text('object_type').notNull(),
    objectId: text('object_id').notNull(),
    customerUserId: integer('customer_user_id'),
    reason: text('reason'),
    data: jsonb('data').$type<Record<string, unknown>>().notNull().default({}),
  },
  (t) => [
    check('audit_log_actor_type', sql`${t.actorType} in ('user', 'staff', 'system', 'provider')`),
    index('audit_log_customer_at_idx').on(t.customerUserId, t.at),
    index('audit_log_action_at_idx').on(t.action, t.at),
  ],
);

export type AuditActorType = 'user' | 'staff' | 'system' | 'provider';
/** What an analytics event or profile update carries (modules/analytics, integrations/analytics). */
export interface AnalyticsPayload {
  properties: Record<string, unknown>;
  value: number | null;
  /** Profile updates only. */
  firstName?: string | null;
  lastName?: string | null;
  phoneNumber?: string | null;
}

/**
 * Analytics events and profile updates for the provider (modules/analytics): written in the caller's transaction with
 * an `analytics.deliver` job (modules/jobs) that delivers the row after commit, with the engine's claims, retries and
 * dead letters. `email` is null for the server's own events: the job reads the account's email when it delivers.
 * One row per (user, kind, name, unique_id): a second copy of an event is dropped (and enqueues no job).
 */
export const analyticsOutbox = pgTable(
  'analytics_outbox',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    kind: text('kind').$type<'event' | 'profile'>().notNull(),
    /** The §3 event name; '' for a profile update. */
    name: text('name').notNull(),
    uniqueId: text('unique_id').notNull(),
    email: text('email'),
    payload: jsonb('payload').$type<AnalyticsPayload>().notNull(),
    occurredAt: timestamp('occurred_at', { withTimezone: true }).notNull(),
    deliveredAt: timestamp('delivered_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    check('analytics_outbox_kind', sql`${t.kind} in ('event', 'profile')`),
    uniqueIndex('analytics_outbox_unique_event').on(t.userId, t.kind, t.name, t.uniqueId),
  ],
);

/**
 * What the sandbox analytics adapter received (integrations/analytics/sandbox-adapter): what Klaviyo would keep. An
 * event is kept once per (email, name, unique_id), as Klaviyo dedupes on `unique_id`. Staff read it.
 */
export const analyticsSandboxDeliveries = pgTable(
  'analytics_sandbox_deliveries',
  {
    id: serial('id').primaryKey(),
    kind: text('kind').$type<'event' | 'profile'>().notNull(),
    email: text('email').notNull(),
    name: text('name'),
    uniqueId: text('unique_id'),
    properties: jsonb('properties').$type<Record<string, unknown>>().notNull(),
    value: doublePrecision('value'),
    occurredAt: timestamp('occurred_at', { withTimezone: true }).notNull(),
    deliveredAt: timestamp('delivered_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check('analytics_sandbox_deliveries_kind', sql`${t.kind} in ('event', 'profile')`),
    uniqueIndex('analytics_sandbox_deliveries_unique_event').on(t.email, t.name, t.uniqueId),
    index('analytics_sandbox_deliveries_newest_idx').on(t.deliveredAt, t.id),
  ],
);

// ——— Theme-file upgrades (issue 10). Owner: modules/theme-upgrades. ———

export const themeUpgradeRunStatusEnum = pgEnum('theme_upgrade_run_status', [
  'running',
  'succeeded',
  'failed',
  'cancelled',
]);
/** Where a run in progress is (ADR 041): waiting for a worker, then the job's phases. */
export const themeUpgradePhaseEnum = pgEnum('theme_upgrade_phase', [
  'queued',
  'upload',
  'detect',
  'merge',
  'check',
  'write',
]);

/**
 * One theme-file upgrade or update: who ran it, which keys, the versions, the report and the stored output (kept
 * 7 days). At most one run in progress per target key, per source key and per store (partial unique indexes).
 */
export const themeUpgradeRuns = pgTable(
  'theme_upgrade_runs',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    sourceKeyId: integer('source_key_id')
      .notNull()
      .references(() => licenseKeys.id, { onDelete: 'cascade' }),
    targetKeyId: integer('target_key_id')
      .notNull()
      .references(() => licenseKeys.id, { onDelete: 'cascade' }),
    /** The license key texts at the time of the run (what the report shows). */
    sourceApiKey: text('source_api_key').notNull(),
    targetApiKey: text('target_api_key').notNull(),
    sourceEdition: tierEnum('source_edition').notNull(),
    targetEdition: tierEnum('target_edition').notNull(),
    /** The version the merchant's export says it is; null until the engine read it. */
    sourceVersion: text('source_version'),
    targetVersion: text('target_version').notNull(),
    targetReleaseId: integer('target_release_id').references(() => releases.id, { onDelete: 'set null' }),
    /** The store (myshopify domain, lower case) the source key was connected to, when it was. */
    store: text('store'),
    moveConnection: boolean('move_connection').notNull().default(false),
    connectionMoved: boolean('connection_moved').notNull().default(false),
    status: themeUpgradeRunStatusEnum('status').notNull().default('running'),
    report: jsonb('report').$type<unknown>(),
    reportHtmlKey: text('report_html_key'),
    /** The merchant's copies of files they edited (the target's version is in the output), when there are any. */
    reviewKey: text('review_key'),
    outputKey: text('output_key'),
    errorCode: text('error_code'),
    /** Why it failed, in words for the merchant (the refusal's message); null for an internal error. */
    errorMessage: text('error_message'),
    /** The job that runs it (modules/jobs, ADR 041); null for runs made before runs were jobs. */
    jobId: integer('job_id'),
    /** The uploaded export while the run needs it (deleted when it ends). */
    uploadKey: text('upload_key'),
    phase: themeUpgradePhaseEnum('phase').notNull().default('queued'),
    progressDone: integer('progress_done').notNull().default(0),
    progressTotal: integer('progress_total').notNull().default(0),
    /** The store the customer agreed would lose its license (the target key's, when connected elsewhere). */
    consentStore: text('consent_store'),
    /** When the expiry sweep deleted the stored files (output, report, review). */
    filesDeletedAt: timestamp('files_deleted_at', { withTimezone: true }),
    createdAt: createdAt(),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    index('theme_upgrade_runs_user_idx').on(t.userId, t.id),
    index('theme_upgrade_runs_expires_idx')
      .on(t.expiresAt)
      .where(sql`${t.filesDeletedAt} is null`),
    uniqueIndex('theme_upgrade_runs_running_target')
      .on(t.targetKeyId)
      .where(sql`${t.status} = 'running'`),
    uniqueIndex('theme_upgrade_runs_running_source')
      .on(t.sourceKeyId)
      .where(sql`${t.status} = 'running'`),
    uniqueIndex('theme_upgrade_runs_running_store')
      .on(t.store)
      .where(sql`${t.status} = 'running' and ${t.store} is not null`),
    check(
      'theme_upgrade_runs_succeeded_has_output',
      sql`${t.status} <> 'succeeded' or (${t.outputKey} is not null and ${t.report} is not null)`,
    ),
    check('theme_upgrade_runs_moved_only_if_asked', sql`not ${t.connectionMoved} or ${t.moveConnection}`),
  ],
);

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

/**
 * Issue 13 (ADR 031): validation check-ins, aggregated. Each validation with a readable token is counted in the
 * check-in buffer (memory or Redis) and a flusher upserts one row per (key, domain, version, edition, covered) with the
 * count and the first and last time seen, in one statement per batch: never a write per request.
 */
export const licenseCheckins = pgTable(
  'license_checkins',
  {
    id: serial('id').primaryKey(),
    keyId: integer('key_id')
      .notNull()
      .references(() => licenseKeys.id, { onDelete: 'cascade' }),
    /** The storefront's registrable domain (the shared domain rules, as store reports normalise a domain). */
    domain: text('domain').notNull(),
    version: text('version').notNull(),
    edition: tierEnum('edition').notNull(),
    /** The key's token whitelists the domain. */
    covered: boolean('covered').notNull(),
    count: bigint('count', { mode: 'number' }).notNull(),
    firstSeenAt: timestamp('first_seen_at', { withTimezone: true }).notNull(),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    uniqueIndex('license_checkins_aggregate_unique').on(t.keyId, t.domain, t.version, t.edition, t.covered),
    // Key health: a key's latest check-ins.
    index('license_checkins_key_idx').on(t.keyId, t.lastSeenAt),
    // Sightings: uncovered domains, most recent first; and the report evidence by domain.
    index('license_checkins_uncovered_idx')
      .on(t.domain, t.lastSeenAt)
      .where(sql`not ${t.covered}`),
    check('license_checkins_count_positive', sql`${t.count} > 0`),
  ],
);

export const JOB_STATUSES = ['queued', 'running', 'done', 'dead', 'cancelled'] as const;
export type JobStatus = (typeof JOB_STATUSES)[number];

/**
 * The job engine's queue (modules/jobs, ADR 038): every after-commit effect (emails, analytics, the sandboxes' webhook
 * deliveries, recurring clean-ups, theme-file upgrades next) is a row here, inserted in the caller's transaction.
 * A worker claims due rows with `FOR UPDATE SKIP LOCKED` and a lease (`locked_by`, `locked_until`, renewed while the
 * handler runs); a failure goes back to `queued` with a backoff, and after the kind's last attempt to `dead`, where
 * staff see it and may retry it. `dedupe_key` makes an enqueue idempotent per kind.
 */
export const jobs = pgTable(
  'jobs',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    kind: text('kind').notNull(),
    payload: jsonb('payload').$type<Record<string, unknown>>().notNull(),
    status: text('status').$type<JobStatus>().notNull().default('queued'),
    dedupeKey: text('dedupe_key'),
    /** When it is due (again, after a failure's backoff). */
    runAt: timestamp('run_at', { withTimezone: true }).notNull(),
    /** Claims so far (each claim counts, so a worker that died mid-run used one up). */
    attempts: integer('attempts').notNull().default(0),
    /** The claim: which worker, and until when (a dead worker's claim expires). */
    lockedBy: text('locked_by'),
    lockedUntil: timestamp('locked_until', { withTimezone: true }),
    lastError: text('last_error'),
    /** What the handler reported last (long jobs), e.g. `{ "done": 3, "total": 10 }`. */
    progress: jsonb('progress').$type<Record<string, unknown>>(),
    cancelRequestedAt: timestamp('cancel_requested_at', { withTimezone: true }),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    check('jobs_status', sql`${t.status} in ('queued', 'running', 'done', 'dead', 'cancelled')`),
    check('jobs_attempts', sql`${t.attempts} >= 0`),
    uniqueIndex('jobs_kind_dedupe_key_unique').on(t.kind, t.dedupeKey),
    index('jobs_due_idx')
      .on(t.runAt, t.id)
      .where(sql`${t.status} = 'queued'`),
    index('jobs_running_idx')
      .on(t.lockedUntil)
      .where(sql`${t.status} = 'running'`),
    index('jobs_problems_idx')
      .on(t.status, t.id)
      .where(sql`${t.status} = 'dead' or ${t.lastError} is not null`),
  ],
);

/**
 * Recurring jobs (modules/jobs): one row per schedule. Whichever process first moves `next_run_at` past now with a
 * conditional update enqueues that period's job, in the same transaction: once per period across all processes.
 */
export const jobSchedules = pgTable('job_schedules', {
  name: text('name').primaryKey(),
  nextRunAt: timestamp('next_run_at', { withTimezone: true }).notNull(),
  lastRunAt: timestamp('last_run_at', { withTimezone: true }),
});
