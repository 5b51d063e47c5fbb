/** modules/payments: orders (upgrades and credit packs) and processed webhook events. */
import { sql } from 'drizzle-orm';
import {
  type AnyPgColumn,
  boolean,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  serial,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { users } from './auth';
import { createdAt, tierEnum, upgradePathEnum } from './columns';
import { creditPacks } from './credits';
import { licenseKeys } from './keys';

/**
 * Every order (modules/payments): an upgrade of one key (`kind` 'upgrade'), a pack of credits (`kind` 'credit_pack',
 * issue 11) — the amounts the server computed, the billing snapshot and VAT evidence, and the provider's payment — or an
 * order of the legacy store (`kind` 'legacy': its description and date only, amounts 0; issue 21, ADR 044: copied
 * from auth's former `orders` table). At most one pending upgrade order per key and one pending credit-pack order per
 * user. Named `upgrade_orders` until issue 21.
 */
export const orders = pgTable(
  'orders',
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
    /** Legacy orders only: what the legacy store sold. */
    description: text('description'),
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
    check('orders_total', sql`${t.totalAmountCents} = ${t.baseAmountCents} + ${t.vatAmountCents}`),
    check(
      'orders_amounts',
      sql`(${t.kind} <> 'legacy' and ${t.baseAmountCents} > 0 and ${t.vatAmountCents} >= 0)
       or (${t.kind} = 'legacy' and ${t.baseAmountCents} = 0 and ${t.vatAmountCents} = 0)`,
    ),
    check(
      'orders_status',
      sql`${t.status} in ('pending', 'capturing', 'superseded', 'void', 'expired', 'completed', 'needs_refund', 'review', 'refunded', 'disputed', 'charged_back')`,
    ),
    check(
      'orders_dispute_state',
      sql`${t.disputeState} is null or ${t.disputeState} in ('open', 'funds_withdrawn', 'won', 'lost')`,
    ),
    check(
      'orders_kind_fields',
      sql`(${t.kind} = 'upgrade' and ${t.licenseKeyId} is not null and ${t.licenseKey} is not null
            and ${t.path} is not null and ${t.fromTier} is not null and ${t.toTier} is not null
            and ${t.creditPackId} is null and ${t.credits} is null and ${t.description} is null)
       or (${t.kind} = 'credit_pack' and ${t.creditPackId} is not null and ${t.credits} > 0
            and ${t.licenseKeyId} is null and ${t.path} is null and ${t.description} is null)
       or (${t.kind} = 'legacy' and ${t.description} is not null and ${t.licenseKeyId} is null and ${t.path} is null
            and ${t.creditPackId} is null and ${t.credits} is null)`,
    ),
    uniqueIndex('orders_provider_payment_unique').on(t.provider, t.providerPaymentId),
    // One open order per key (per user for packs): waiting for its payment, or claimed for capture (ADR 035).
    uniqueIndex('orders_one_pending_per_key')
      .on(t.licenseKeyId)
      .where(sql`${t.status} in ('pending', 'capturing') and ${t.kind} = 'upgrade'`),
    uniqueIndex('orders_one_pending_credit_pack_per_user')
      .on(t.userId)
      .where(sql`${t.status} in ('pending', 'capturing') and ${t.kind} = 'credit_pack'`),
    // The sweeper's look-ups (abandoned pending orders, stale captures).
    index('orders_status_updated_idx').on(t.status, t.updatedAt),
    index('orders_user_idx').on(t.userId, t.id),
  ],
);

export type OrderKind = 'upgrade' | 'credit_pack' | 'legacy';

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
