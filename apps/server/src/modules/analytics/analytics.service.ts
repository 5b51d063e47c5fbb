import { randomUUID } from 'node:crypto';
import type { AnalyticsProperties, BrowserAnalyticsEventName } from '@keyport/shared/contracts/analytics';
import type { Db, DbOrTx } from '../../db/client';
import type { RateLimiter } from '../../http/rate-limit';
import type { AnalyticsPort } from '../../integrations/analytics/port';
import type { Jobs } from '../jobs/jobs.service';
import {
  tokenRedemptionEvent,
  upgradePurchaseEvent,
  type CompletedUpgradeOrder,
  type ServerEvent,
  type TokenRedemption,
} from './analytics.events';
import * as repo from './analytics.repo';
import {
  DEFAULT_DELIVERY,
  DELIVER_ANALYTICS,
  deliverAnalyticsJob,
  type DeliverAnalyticsPayload,
  type DeliverySettings,
} from './deliver-analytics.job';

export type { CompletedUpgradeOrder, DeliverySettings, TokenRedemption };

export interface AnalyticsServiceDeps {
  db: Db;
  /** Delivery runs on the job engine (ADR 038): one `analytics.deliver` job per written row. */
  jobs: Pick<Jobs, 'register' | 'enqueue' | 'nudge' | 'runUntilIdle'>;
  /** null: analytics are off (production without a provider key): nothing is written, nothing is delivered. */
  port: AnalyticsPort | null;
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

/**
 * Purchase analytics through an outbox: events and profile updates are written in the caller's transaction (or on
 * their own for the browser's calls), each with an `analytics.deliver` job, and delivered after commit by the job
 * engine — on a nudge after each commit and on its poll — with retries and exponential backoff. A request never waits
 * on the provider; a failing row is logged when it starts failing and once more if it is given up, never per retry.
 */
export function createAnalyticsService(deps: AnalyticsServiceDeps) {
  const { db, jobs, port, resolveEmail, trackLimit } = deps;
  const settings: DeliverySettings = { ...DEFAULT_DELIVERY, ...deps.delivery };
  const now = deps.now ?? (() => new Date());
  if (port) jobs.register(deliverAnalyticsJob({ db, port, resolveEmail, settings, now }));

  /** Writes the row and its delivery job (in the caller's transaction); a second copy of an event writes neither. */
  async function write(tx: DbOrTx, values: repo.NewOutboxRow): Promise<boolean> {
    if (!port) return false;
    const id = await repo.insertItem(tx, values);
    if (id === null) return false;
    const payload: DeliverAnalyticsPayload = {
      outboxId: id,
      event: values.kind === 'profile' ? 'profile update' : values.name,
    };
    await jobs.enqueue(tx, DELIVER_ANALYTICS, payload);
    return true;
  }

  function enqueue(tx: DbOrTx, event: ServerEvent & { email?: string | null }): Promise<boolean> {
    return write(tx, {
      userId: event.userId,
      kind: 'event',
      name: event.name,
      uniqueId: event.uniqueId,
      email: event.email ?? null,
      payload: { properties: event.properties, value: event.value },
      occurredAt: now(),
    });
  }

  /** After a commit: deliver in the background (never awaited by a request). */
  const deliverSoon = () => jobs.nudge();

  /** Delivers every due row in this process and resolves when done (tests; the engine's poll does it otherwise). */
  const deliverDue = () => jobs.runUntilIdle({ kinds: [DELIVER_ANALYTICS] });

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
      // The row and its job together (a transaction): never a row that nothing will deliver.
      await db.transaction((tx) =>
        enqueue(tx, {
          userId: caller.id,
          email: caller.email,
          name: input.eventName,
          uniqueId: input.uniqueId ?? randomUUID(),
          properties: input.properties ?? {},
          value: null,
        }),
      );
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
      await db.transaction((tx) =>
        write(tx, {
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
          occurredAt: now(),
        }),
      );
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
  };
}
export type AnalyticsService = ReturnType<typeof createAnalyticsService>;
