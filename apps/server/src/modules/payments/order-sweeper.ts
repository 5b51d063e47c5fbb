import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/client';
import type { Jobs } from '../jobs/jobs.service';
import { ORDER_MESSAGES } from './order-messages';
import * as repo from './payments.repo';

/** A pending order nobody touched for this long is abandoned (issue 19). */
export const ABANDONED_AFTER_MS = 24 * 60 * 60_000;
/**
 * A claim older than this belongs to a process that died mid-capture: every provider call has a timeout far shorter
 * (Stripe 20 s with two retries, PayPal 20 s), so no live request still holds it.
 */
export const STALE_CAPTURE_AFTER_MS = 10 * 60_000;
/** Orders per sweep and kind (the next sweep takes the rest). */
const BATCH = 100;

export interface OrderSweeperDeps {
  db: Db;
  /** Card orders: an abandoned one with an authorized card is captured rather than expired; releases, resumes. */
  card: {
    resumeCardOrder(order: repo.OrderRow): Promise<'captured' | 'open'>;
    resumeCardCapture(order: repo.OrderRow): Promise<void>;
    releaseOrders(orders: repo.OrderRow[]): Promise<void>;
  };
  /** PayPal orders: a claimed capture is resumed. */
  wallet: { resumeCapture(order: repo.OrderRow): Promise<void> };
  /** Provider names of the wallet (PayPal or its sandbox): its orders are never captured by the sweeper. */
  paypalProviders: string[];
  log: FastifyBaseLogger;
}

/**
 * Orders that nobody finishes (issue 19): pending orders abandoned for a day expire (staff see `expired`, their card
 * payment is released; an authorized card is captured instead, as its webhook would have), and captures whose process
 * died after the claim are resumed (the key is still held, so capturing is still safe). Every step is a conditional
 * update, so several processes may sweep at once. Runs as a recurring job (`scheduleOrderSweeps`), once per period
 * across all processes.
 */
export function createOrderSweeper(deps: OrderSweeperDeps) {
  const { db, card, wallet, log } = deps;

  /** Expires pending orders untouched since `now` − ABANDONED_AFTER_MS; answers how many expired. */
  async function expireAbandonedOrders(now: Date): Promise<number> {
    const before = new Date(now.getTime() - ABANDONED_AFTER_MS);
    const expired: repo.OrderRow[] = [];
    for (const order of await repo.findAbandonedOrders(db, before, BATCH)) {
      try {
        const isPaypal = deps.paypalProviders.includes(order.provider);
        if (!isPaypal && (await card.resumeCardOrder(order)) === 'captured') continue;
        const row = await repo.expireOrder(db, order.id, before, ORDER_MESSAGES.expired);
        if (row) expired.push(row);
      } catch (error) {
        log.warn({ err: error, orderId: order.id }, 'could not expire an abandoned order; next sweep');
      }
    }
    await card.releaseOrders(expired);
    if (expired.length > 0) log.info({ count: expired.length }, 'abandoned orders expired');
    return expired.length;
  }

  /** Resumes captures claimed before `now` − STALE_CAPTURE_AFTER_MS; answers how many it tried. */
  async function recoverStaleCaptures(now: Date): Promise<number> {
    const before = new Date(now.getTime() - STALE_CAPTURE_AFTER_MS);
    const stale = await repo.findStaleCaptures(db, before, BATCH);
    for (const order of stale) {
      try {
        if (deps.paypalProviders.includes(order.provider)) await wallet.resumeCapture(order);
        else await card.resumeCardCapture(order);
      } catch (error) {
        log.warn({ err: error, orderId: order.id }, 'could not resume a capture; next sweep');
      }
    }
    return stale.length;
  }

  async function sweep(now: Date) {
    return { recovered: await recoverStaleCaptures(now), expired: await expireAbandonedOrders(now) };
  }

  return {
    expireAbandonedOrders,
    recoverStaleCaptures,
    sweep,
  };
}
export type OrderSweeper = ReturnType<typeof createOrderSweeper>;

export const SWEEP_ORDERS = 'payments.sweep-orders';
/** How often abandoned orders are looked for and interrupted captures resumed (across all processes). */
export const ORDER_SWEEP_INTERVAL_MS = 5 * 60_000;

/** Registers the order sweep as a job of the engine (ADR 038) and schedules it every ORDER_SWEEP_INTERVAL_MS. */
export function scheduleOrderSweeps(jobs: Pick<Jobs, 'register' | 'schedule'>, sweeper: OrderSweeper): void {
  jobs.register({
    kind: SWEEP_ORDERS,
    what: 'order sweep',
    maxAttempts: 3,
    backoff: { baseMs: 30_000, maxMs: 2 * 60_000 },
    leaseMs: 10 * 60_000,
    describe: () => 'Expire abandoned orders, resume interrupted captures',
    async handler(_payload, context) {
      await sweeper.sweep(context.now());
    },
  });
  jobs.schedule('sweep-orders', SWEEP_ORDERS, ORDER_SWEEP_INTERVAL_MS);
}
