import type { Db } from '../../db/client';
import { AnalyticsDeliveryError, type AnalyticsPort } from '../../integrations/analytics/port';
import type { JobDefinition } from '../jobs/jobs.service';
import * as repo from './analytics.repo';

export const DELIVER_ANALYTICS = 'analytics.deliver';

/** The job's payload: the outbox row, and the event's name for staff and the logs. */
export interface DeliverAnalyticsPayload extends Record<string, unknown> {
  outboxId: number;
  /** The §3 event name, or 'profile update'. */
  event: string;
}

export interface DeliverySettings {
  /** Attempts before a row is given up (then logged once more). */
  maxAttempts: number;
  /** The first retry's delay; each further retry doubles it, up to `maxDelayMs`. */
  baseDelayMs: number;
  maxDelayMs: number;
  /** How long a claim holds the job: longer than one provider call can take. */
  leaseMs: number;
}

/** 5 s, doubling, capped at 30 min: 12 attempts, about 2.5 hours (ADR 017). */
export const DEFAULT_DELIVERY: DeliverySettings = {
  maxAttempts: 12,
  baseDelayMs: 5_000,
  maxDelayMs: 30 * 60_000,
  leaseMs: 60_000,
};

class RowGone extends Error {
  override name = 'RowGone';
}

/**
 * `analytics.deliver`: sends one `analytics_outbox` row to the provider and marks it delivered. A delivered row is
 * not sent again; one that slips through (a worker died after the provider's answer) is deduplicated by the
 * provider's `unique_id`. Refusals (400, 401, 403) are given up at once; outages are retried with backoff.
 */
export function deliverAnalyticsJob(deps: {
  db: Db;
  port: AnalyticsPort;
  resolveEmail: (userId: number) => Promise<string | null>;
  settings: DeliverySettings;
  now: () => Date;
}): JobDefinition<DeliverAnalyticsPayload> {
  const { db, port, resolveEmail, settings, now } = deps;
  return {
    kind: DELIVER_ANALYTICS,
    what: 'analytics delivery',
    maxAttempts: settings.maxAttempts,
    backoff: { baseMs: settings.baseDelayMs, maxMs: settings.maxDelayMs },
    leaseMs: settings.leaseMs,
    describe: (payload) => `${payload.event} (analytics row ${payload.outboxId})`,
    logContext: (payload) => ({ analyticsOutboxId: payload.outboxId, event: payload.event }),
    isPermanent: (error) => error instanceof RowGone || (error instanceof AnalyticsDeliveryError && !error.retryable),
    async handler(payload) {
      const row = await repo.findItem(db, payload.outboxId);
      if (!row) throw new RowGone(`Analytics row ${payload.outboxId} is gone (its account was deleted)`);
      if (row.deliveredAt) return;
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
    },
  };
}
