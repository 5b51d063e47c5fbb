import { and, asc, desc, eq, gt, inArray, isNotNull, isNull, lt, ne, notInArray, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { type DisputeState, paymentWebhookEvents, orders, type UpgradeOrderStatus } from '../../db/schema';

export type OrderRow = typeof orders.$inferSelect;
export type NewOrder = typeof orders.$inferInsert;

/** An upgrade order: the key and path columns are set (the table's check `orders_kind_fields`). */
export type UpgradeOrderRow = OrderRow & {
  kind: 'upgrade';
  licenseKeyId: number;
  licenseKey: string;
  path: NonNullable<OrderRow['path']>;
  fromTier: NonNullable<OrderRow['fromTier']>;
  toTier: NonNullable<OrderRow['toTier']>;
};

/** A credit-pack order (issue 11): the pack and its credits are set, no key (the same check). */
export type CreditPackOrderRow = OrderRow & {
  kind: 'credit_pack';
  creditPackId: number;
  credits: number;
  licenseKeyId: null;
  path: null;
};

/**
 * An order of the legacy store (issue 21, ADR 044): a description and a date; never paid through Keyport, so no
 * payment path meets one (they find orders by their provider's payment, which a legacy order has none of).
 */
export type LegacyOrderRow = OrderRow & { kind: 'legacy'; description: string };

/** An order taken through Keyport's payment paths (not a legacy one): what staff lists and pages show. */
export type PayableOrderRow = OrderRow & { kind: 'upgrade' | 'credit_pack' };

/** An order is one or the other; code that fulfils, refunds or describes it branches on this. */
export type KindedOrderRow = UpgradeOrderRow | CreditPackOrderRow;

/** The order with its kind's columns typed as the table's check guarantees them. */
export function kinded(order: OrderRow): KindedOrderRow {
  return order as KindedOrderRow;
}

export function isUpgradeOrder(order: OrderRow): order is UpgradeOrderRow {
  return order.kind === 'upgrade';
}

/**
 * Orders a payment may still complete. Keyport captures only claimed orders ('capturing', ADR 035), but whatever money
 * a provider reports taken is recorded (and flagged when its upgrade no longer applies): the provider's truth wins.
 */
const PAYABLE: UpgradeOrderStatus[] = ['pending', 'capturing', 'superseded', 'void', 'expired'];

/** Orders that were never charged and never will be: a capture of one is refused, its payment released. */
export const CLOSED_UNPAID: UpgradeOrderStatus[] = ['superseded', 'void', 'expired'];

/**
 * The pending order `wanted` competes with, if any (at most one: partial unique indexes): for an upgrade the key's,
 * for a credit pack the user's.
 */
export function findPendingOrder(db: DbOrTx, wanted: Pick<NewOrder, 'kind' | 'userId' | 'licenseKeyId'>) {
  const owner =
    wanted.kind === 'credit_pack'
      ? and(eq(orders.userId, wanted.userId), eq(orders.kind, 'credit_pack'))
      : and(eq(orders.licenseKeyId, wanted.licenseKeyId!), eq(orders.kind, 'upgrade'));
  return db
    .select()
    .from(orders)
    .where(and(owner, eq(orders.status, 'pending')))
    .then((rows) => rows[0] ?? null);
}

/**
 * Inserts a pending order; null when the key (upgrade) or the user (credit pack) already has one: the partial unique
 * index of that kind decides, not a read.
 */
export function insertPendingOrder(db: DbOrTx, values: NewOrder) {
  const pack = values.kind === 'credit_pack';
  return db
    .insert(orders)
    .values({ ...values, status: 'pending' })
    .onConflictDoNothing({
      target: pack ? orders.userId : orders.licenseKeyId,
      where: pack
        ? sql`${orders.status} in ('pending', 'capturing') and ${orders.kind} = 'credit_pack'`
        : sql`${orders.status} in ('pending', 'capturing') and ${orders.kind} = 'upgrade'`,
    })
    .returning()
    .then((rows) => rows[0] ?? null);
}

/** Records the provider's payment on the order, once (a second caller finds it set and keeps the first). */
export function attachPayment(db: DbOrTx, orderId: number, provider: string, paymentRef: string) {
  return db
    .update(orders)
    .set({ provider, providerPaymentId: paymentRef, updatedAt: sql`now()` })
    .where(and(eq(orders.id, orderId), isNull(orders.providerPaymentId)))
    .returning()
    .then((rows) => rows[0] ?? null);
}

export function findOrder(db: DbOrTx, orderId: number) {
  return db
    .select()
    .from(orders)
    .where(eq(orders.id, orderId))
    .then((rows) => rows[0] ?? null);
}

/** A user's orders, newest first (the staff customer page). */
export function listOrdersOfUser(db: DbOrTx, userId: number, limit: number) {
  return db
    .select()
    .from(orders)
    .where(and(eq(orders.userId, userId), ne(orders.kind, 'legacy')))
    .orderBy(desc(orders.id))
    .limit(limit) as Promise<PayableOrderRow[]>;
}

export function findOwnedOrder(db: DbOrTx, userId: number, orderId: number) {
  return db
    .select()
    .from(orders)
    .where(and(eq(orders.id, orderId), eq(orders.userId, userId)))
    .then((rows) => rows[0] ?? null);
}

export function findOrderByPayment(db: DbOrTx, provider: string, paymentRef: string) {
  return db
    .select()
    .from(orders)
    .where(and(eq(orders.provider, provider), eq(orders.providerPaymentId, paymentRef)))
    .then((rows) => rows[0] ?? null);
}

/**
 * Claims a pending order for capture (ADR 035): pending → capturing, once. The caller checked, with the key's row
 * locked in the same transaction, that the upgrade still applies; while the order is capturing no other order of the
 * key can open and no token redemption can change the tier.
 */
export function claimOrder(db: DbOrTx, orderId: number) {
  return db
    .update(orders)
    .set({ status: 'capturing', updatedAt: sql`now()` })
    .where(and(eq(orders.id, orderId), eq(orders.status, 'pending')))
    .returning()
    .then((rows) => rows[0] ?? null);
}

/** A capture that did not take money (declined, not approved): capturing → pending, with the provider's message. */
export function releaseClaim(db: DbOrTx, orderId: number, message: string | null) {
  return db
    .update(orders)
    .set({
      status: 'pending',
      ...(message ? { lastPaymentError: message.slice(0, 500) } : {}),
      updatedAt: sql`now()`,
    })
    .where(and(eq(orders.id, orderId), eq(orders.status, 'capturing')))
    .returning()
    .then((rows) => rows[0] ?? null);
}

/** The order will never be charged (no longer applicable, cancelled): `from` → void, with the reason shown to the buyer. */
export function voidOrder(db: DbOrTx, orderId: number, reason: string, from: UpgradeOrderStatus[]) {
  return db
    .update(orders)
    .set({ status: 'void', processingError: reason, updatedAt: sql`now()` })
    .where(and(eq(orders.id, orderId), inArray(orders.status, from)))
    .returning()
    .then((rows) => rows[0] ?? null);
}

/** The key's order being captured right now, if any (at most one: the partial unique index). */
export function findCapturingOrderOfKey(db: DbOrTx, keyId: number) {
  return db
    .select({ id: orders.id })
    .from(orders)
    .where(and(eq(orders.licenseKeyId, keyId), eq(orders.status, 'capturing')))
    .then((rows) => rows[0] ?? null);
}

/** Voids the key's pending order (its upgrade no longer applies: the tier is changing in the caller's transaction). */
export function voidPendingOrdersOfKey(db: DbOrTx, keyId: number, reason: string) {
  return db
    .update(orders)
    .set({ status: 'void', processingError: reason, updatedAt: sql`now()` })
    .where(and(eq(orders.licenseKeyId, keyId), eq(orders.status, 'pending')))
    .returning();
}

/** Pending orders nobody touched since `before` (the sweeper expires them, or captures an authorized card). */
export function findAbandonedOrders(db: DbOrTx, before: Date, limit: number) {
  return db
    .select()
    .from(orders)
    .where(and(eq(orders.status, 'pending'), lt(orders.updatedAt, before)))
    .orderBy(asc(orders.updatedAt))
    .limit(limit);
}

/** An abandoned order expires, once (not if it was claimed or touched since `before`). */
export function expireOrder(db: DbOrTx, orderId: number, before: Date, reason: string) {
  return db
    .update(orders)
    .set({ status: 'expired', processingError: reason, updatedAt: sql`now()` })
    .where(and(eq(orders.id, orderId), eq(orders.status, 'pending'), lt(orders.updatedAt, before)))
    .returning()
    .then((rows) => rows[0] ?? null);
}

/** Orders claimed for capture before `before` and never settled (the process died mid-capture): the sweeper resumes them. */
export function findStaleCaptures(db: DbOrTx, before: Date, limit: number) {
  return db
    .select()
    .from(orders)
    .where(and(eq(orders.status, 'capturing'), lt(orders.updatedAt, before)))
    .orderBy(asc(orders.updatedAt))
    .limit(limit);
}

/** Locks the order's row until the transaction ends (dispute events for one order take turns). */
export function lockOrder(db: DbOrTx, orderId: number) {
  return db
    .select()
    .from(orders)
    .where(eq(orders.id, orderId))
    .for('update')
    .then((rows) => rows[0] ?? null);
}

/** Records where the order's dispute stands (and its status), inside the caller's locked transaction. */
export function setDispute(
  db: DbOrTx,
  orderId: number,
  values: { status: UpgradeOrderStatus; disputeState: DisputeState; disputeRef: string },
) {
  return db
    .update(orders)
    .set({ ...values, updatedAt: sql`now()` })
    .where(eq(orders.id, orderId))
    .returning()
    .then((rows) => rows[0]!);
}

/** A pending order replaced by a newer attempt for the same key (different amounts or billing). */
export function supersedeOrder(db: DbOrTx, orderId: number) {
  return db
    .update(orders)
    .set({ status: 'superseded', updatedAt: sql`now()` })
    .where(and(eq(orders.id, orderId), eq(orders.status, 'pending')))
    .returning({ id: orders.id })
    .then((rows) => rows[0] ?? null);
}

/**
 * The payment arrived: the order becomes completed, once. Of any number of webhook deliveries and sync calls at the
 * same moment, the status condition lets exactly one through; the others find nothing.
 */
export function completeOrder(db: DbOrTx, orderId: number, paidAt: Date) {
  return db
    .update(orders)
    .set({ status: 'completed', paymentCompletedAt: paidAt, lastPaymentError: null, updatedAt: sql`now()` })
    .where(and(eq(orders.id, orderId), inArray(orders.status, PAYABLE)))
    .returning()
    .then((rows) => rows[0] ?? null);
}

/** What the order paid for was delivered (the tier raised, or the credits added). */
export async function markFulfilled(db: DbOrTx, orderId: number, at: Date) {
  await db.update(orders).set({ upgradeProcessedAt: at }).where(eq(orders.id, orderId));
}

/** A paid order a person must look at: paid but not applicable ('needs_refund') or not matching ('review'). */
export function flagOrder(
  db: DbOrTx,
  orderId: number,
  status: 'needs_refund' | 'review',
  reason: string,
  from: UpgradeOrderStatus[],
) {
  return db
    .update(orders)
    .set({ status, processingError: reason, updatedAt: sql`now()` })
    .where(and(eq(orders.id, orderId), inArray(orders.status, from)))
    .returning()
    .then((rows) => rows[0] ?? null);
}

/** The money went back: a completed (or flagged, or disputed) order becomes refunded, once. */
export function refundOrder(db: DbOrTx, orderId: number, at: Date) {
  return db
    .update(orders)
    .set({ status: 'refunded', refundedAt: at, updatedAt: sql`now()` })
    .where(and(eq(orders.id, orderId), inArray(orders.status, ['completed', 'needs_refund', 'review', 'disputed'])))
    .returning()
    .then((rows) => rows[0] ?? null);
}

/** The provider's decline on an order still waiting for its payment (never on one being captured). */
export async function recordPaymentError(db: DbOrTx, orderId: number, message: string) {
  await db
    .update(orders)
    .set({ lastPaymentError: message.slice(0, 500), updatedAt: sql`now()` })
    .where(and(eq(orders.id, orderId), inArray(orders.status, ['pending', 'superseded'])));
}

export function listUserOrders(db: DbOrTx, userId: number) {
  return db.select().from(orders).where(eq(orders.userId, userId)).orderBy(desc(orders.id));
}

export async function isEventProcessed(db: DbOrTx, provider: string, eventId: string): Promise<boolean> {
  const rows = await db
    .select({ eventId: paymentWebhookEvents.eventId })
    .from(paymentWebhookEvents)
    .where(and(eq(paymentWebhookEvents.provider, provider), eq(paymentWebhookEvents.eventId, eventId)));
  return rows.length > 0;
}

/** Records an event as processed; false when it already was (a concurrent delivery of the same event won). */
export async function recordEvent(db: DbOrTx, provider: string, eventId: string, type: string): Promise<boolean> {
  const rows = await db
    .insert(paymentWebhookEvents)
    .values({ provider, eventId, type })
    .onConflictDoNothing()
    .returning({ eventId: paymentWebhookEvents.eventId });
  return rows.length > 0;
}

/** Orders never charged: still open, or closed unpaid. Settings → Invoices leaves them out. */
export const UNPAID: UpgradeOrderStatus[] = ['pending', 'capturing', ...CLOSED_UNPAID];

/** The user's orders that were paid (whatever became of them since) and their legacy orders, newest first. */
export function listPaidOrdersOfUser(db: DbOrTx, userId: number) {
  return db
    .select()
    .from(orders)
    .where(and(eq(orders.userId, userId), notInArray(orders.status, UNPAID)))
    .orderBy(desc(orders.createdAt), desc(orders.id));
}

/** The user's legacy orders' ids and dates, newest first. */
export function listLegacyOrderDates(db: DbOrTx, userId: number) {
  return db
    .select({ id: orders.id, createdAt: orders.createdAt })
    .from(orders)
    .where(and(eq(orders.userId, userId), eq(orders.kind, 'legacy')))
    .orderBy(desc(orders.createdAt));
}

export function orderStatuses(db: DbOrTx, orderIds: number[]) {
  if (orderIds.length === 0) return Promise.resolve([]);
  return db.select({ id: orders.id, status: orders.status }).from(orders).where(inArray(orders.id, orderIds));
}

/**
 * Staff's list (issue 12): newest first (`order` 'desc') or oldest first, `limit` rows past the cursor id `afterId` in
 * that order, by status and provider names.
 */
export function listOrdersForStaff(
  db: DbOrTx,
  filters: {
    status?: UpgradeOrderStatus;
    dispute?: DisputeState | 'any';
    providers?: string[];
    afterId: number | null;
    order: 'asc' | 'desc';
    limit: number;
  },
) {
  const ascending = filters.order === 'asc';
  return db
    .select()
    .from(orders)
    .where(
      and(
        ne(orders.kind, 'legacy'),
        filters.status ? eq(orders.status, filters.status) : undefined,
        filters.dispute === 'any'
          ? isNotNull(orders.disputeState)
          : filters.dispute
            ? eq(orders.disputeState, filters.dispute)
            : undefined,
        filters.providers ? inArray(orders.provider, filters.providers) : undefined,
        filters.afterId === null ? undefined : (ascending ? gt : lt)(orders.id, filters.afterId),
      ),
    )
    .orderBy(ascending ? asc(orders.id) : desc(orders.id))
    .limit(filters.limit) as Promise<PayableOrderRow[]>;
}
