import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { AnalyticsProperties, BrowserAnalyticsEventName } from '@keyport/shared/contracts/analytics';
import type { Db, DbOrTx } from '../../db/client';
import type { RateLimiter } from '../../http/rate-limit';
import { AnalyticsDeliveryError, type AnalyticsPort } from '../../integrations/analytics/port';
import {
  tokenRedemptionEvent,
  upgradePurchaseEvent,
  type CompletedUpgradeOrder,
  type ServerEvent,
  type TokenRedemption,
} from './analytics.events';
import * as repo from './analytics.repo';

export type { CompletedUpgradeOrder, TokenRedemption };

export interface DeliverySettings {
  /** Attempts before a row is given up (then logged once more). */
  maxAttempts: number;
  /** The first retry's delay; each further retry doubles it, up to `maxDelayMs`. */
  baseDelayMs: number;
  maxDelayMs: number;
  /** How often the worker looks for due rows besides the after-commit nudge. */
  pollMs: number;
  /** Rows one pass claims (delivered concurrently). */
  batchSize: number;
  /** How long a claim holds a row: longer than one provider call can take. */
  leaseMs: number;
}

export const DEFAULT_DELIVERY: DeliverySettings = {
  maxAttempts: 12,
  baseDelayMs: 5_000,
  maxDelayMs: 30 * 60_000,
  pollMs: 5_000,
  batchSize: 20,
  leaseMs: 60_000,
};

export interface AnalyticsServiceDeps {
  db: Db;
  /** null: analytics are off (production without a provider key): nothing is written, nothing is delivered. */
  port: AnalyticsPort | null;
  log: FastifyBaseLogger;
  /** The account's email for the server's own events (read when delivering, after commit). */
  resolveEmail: (userId: number) => Promise<string | null>;
  /** Browser calls per user (POST and PUT together). */
  trackLimit: RateLimiter;
  delivery?: Partial<DeliverySettings>;
  now?: () => Date;
}

interface Caller {
  id: number;
  email: string;
}

/** The retry delay after the `attempts`-th failed attempt: exponential, capped. */
export function backoffDelay(attempts: number, settings: Pick<DeliverySettings, 'baseDelayMs' | 'maxDelayMs'>) {
  return Math.min(settings.maxDelayMs, settings.baseDelayMs * 2 ** Math.max(0, attempts - 1));
}

/**
 * Purchase analytics through an outbox: events and profile updates are written in the caller's transaction (or on
 * their own for the browser's calls) and delivered after commit by a worker — on a nudge after each commit and on a
 * timer — with retries and exponential backoff. A request never waits on the provider; a failing row is logged when it
 * starts failing and once more if it is given up, never per retry.
 */
export function createAnalyticsService(deps: AnalyticsServiceDeps) {
  const { db, port, log, resolveEmail, trackLimit } = deps;
  const settings: DeliverySettings = { ...DEFAULT_DELIVERY, ...deps.delivery };
  const now = deps.now ?? (() => new Date());
  let running: Promise<number> | null = null;
  let again = false;
  let stopped = false;
  let timer: NodeJS.Timeout | null = null;

  async function enqueue(tx: DbOrTx, event: ServerEvent & { email?: string | null }): Promise<boolean> {
    if (!port) return false;
    const at = now();
    return repo.insertItem(tx, {
      userId: event.userId,
      kind: 'event',
      name: event.name,
      uniqueId: event.uniqueId,
      email: event.email ?? null,
      payload: { properties: event.properties, value: event.value },
      occurredAt: at,
      nextAttemptAt: at,
    });
  }

  async function deliverRow(row: repo.OutboxRow): Promise<void> {
    if (!port) return;
    try {
      const email = row.email ?? (await resolveEmail(row.userId));
      if (!email) throw new AnalyticsDeliveryError('the account has no email address', false);
      if (row.kind === 'event') {
        await port.sendEvent({
          uniqueId: row.uniqueId,
          email,
          name: row.name,
          properties: row.payload.properties,
          value: row.payload.value,
          time: row.occurredAt,
        });
      } else {
        await port.upsertProfile({
          email,
          firstName: row.payload.firstName ?? null,
          lastName: row.payload.lastName ?? null,
          phoneNumber: row.payload.phoneNumber ?? null,
          properties: row.payload.properties,
        });
      }
      await repo.markDelivered(db, row.id, now());
    } catch (error) {
      const message = (error instanceof Error ? error.message : String(error)).slice(0, 500);
      const retryable = error instanceof AnalyticsDeliveryError ? error.retryable : true;
      const context = { analyticsOutboxId: row.id, event: row.kind === 'event' ? row.name : 'profile update' };
      if (!retryable || row.attempts >= settings.maxAttempts) {
        await repo.markFailed(db, row.id, now(), message);
        log.error({ ...context, attempts: row.attempts, reason: message }, 'analytics delivery given up');
        return;
      }
      const delay = backoffDelay(row.attempts, settings);
      await repo.markRetry(db, row.id, new Date(now().getTime() + delay), message);
      // Logged when the row starts failing; its later retries are quiet (last_error keeps the latest reason).
      if (row.lastError === null) {
        log.warn({ ...context, reason: message, retryInMs: delay }, 'analytics delivery failed; retrying with backoff');
      }
    }
  }

  /** One pass: claim the due rows and deliver them. */
  async function deliverBatch(): Promise<number> {
    const at = now();
    const rows = await repo.claimDue(db, at, new Date(at.getTime() + settings.leaseMs), settings.batchSize);
    await Promise.all(rows.map(deliverRow));
    return rows.length;
  }

  /** Delivers every due row; one run at a time in this process (a nudge during a run makes it look again). */
  function deliverDue(): Promise<number> {
    if (running) {
      again = true;
      return running;
    }
    running = (async () => {
      let total = 0;
      do {
        again = false;
        const claimed = await deliverBatch();
        total += claimed;
        if (claimed === settings.batchSize) again = true;
      } while (again && !stopped);
      return total;
    })().finally(() => {
      running = null;
      // A nudge that came after the loop's last check (a commit right at the end of a run) gets its own pass.
      if (again && !stopped) deliverSoon();
    });
    return running;
  }

  /** After a commit: deliver in the background (never awaited by a request). */
  function deliverSoon(): void {
    if (stopped) return;
    deliverDue().catch((error: unknown) => log.warn({ err: error }, 'analytics outbox pass failed'));
  }

  return {
    adapter: port?.name ?? 'off',
    enqueue,
    deliverDue,
    deliverSoon,

    /**
     * §7 POST /api/klaviyo/track: on the caller's own profile, whatever email the body names. Only the browser's
     * events, without a value (issue 19: purchase events and amounts come only from the server).
     */
    async track(
      caller: Caller,
      input: {
        eventName: BrowserAnalyticsEventName;
        properties?: AnalyticsProperties;
        uniqueId?: string;
      },
    ): Promise<void> {
      await trackLimit.hit(`analytics:${caller.id}`);
      await enqueue(db, {
        userId: caller.id,
        email: caller.email,
        name: input.eventName,
        uniqueId: input.uniqueId ?? randomUUID(),
        properties: input.properties ?? {},
        value: null,
      });
      deliverSoon();
    },

    /** §7 PUT /api/klaviyo/track: the caller's own profile (the email is the account's). */
    async identify(
      caller: Caller,
      input: {
        firstName?: string | null;
        lastName?: string | null;
        phoneNumber?: string | null;
        properties?: AnalyticsProperties;
      },
    ): Promise<void> {
      await trackLimit.hit(`analytics:${caller.id}`);
      if (!port) return;
      const at = now();
      await repo.insertItem(db, {
        userId: caller.id,
        kind: 'profile',
        name: '',
        uniqueId: randomUUID(),
        email: caller.email,
        payload: {
          properties: input.properties ?? {},
          value: null,
          firstName: input.firstName || null,
          lastName: input.lastName || null,
          phoneNumber: input.phoneNumber || null,
        },
        occurredAt: at,
        nextAttemptAt: at,
      });
      deliverSoon();
    },

    /** Completed Upgrade Purchase, in fulfilment's transaction (call `deliverSoon` after the commit). */
    recordUpgradePurchase: (tx: DbOrTx, order: CompletedUpgradeOrder) => enqueue(tx, upgradePurchaseEvent(order)),

    /** Completed Upgrade Token Redemption, in the redemption's transaction; answers the event's unique id. */
    async recordTokenRedemption(tx: DbOrTx, redemption: TokenRedemption): Promise<string> {
      const event = tokenRedemptionEvent(redemption);
      await enqueue(tx, event);
      return event.uniqueId;
    },

    /** Starts the timer (unref'd: it never keeps the process alive). */
    start(): void {
      if (timer || stopped || !port) return;
      timer = setInterval(deliverSoon, settings.pollMs);
      timer.unref();
      deliverSoon();
    },

    /** Stops the timer and waits for a pass in flight (before the database closes). */
    async stop(): Promise<void> {
      stopped = true;
      if (timer) clearInterval(timer);
      timer = null;
      await running?.catch(() => undefined);
    },
  };
}
export type AnalyticsService = ReturnType<typeof createAnalyticsService>;
