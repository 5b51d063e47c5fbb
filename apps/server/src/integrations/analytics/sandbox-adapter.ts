import { count, desc } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { analyticsSandboxDeliveries } from '../../db/schema';
import type { AnalyticsPort } from './port';

export interface SandboxDelivery {
  id: number;
  kind: 'event' | 'profile';
  email: string;
  name: string | null;
  uniqueId: string | null;
  properties: Record<string, unknown>;
  value: number | null;
  occurredAt: Date;
  deliveredAt: Date;
}

/**
 * The sandbox adapter, the default without KLAVIYO_PRIVATE_KEY: what Klaviyo would receive is kept in its own table
 * (an event once per profile, name and unique id, as Klaviyo dedupes), and staff read it newest first. It goes through
 * the same outbox, retries and routes as the real adapter.
 */
export function createSandboxAnalyticsAdapter(db: Db) {
  return {
    name: 'sandbox' as const,
    async sendEvent(event) {
      await db
        .insert(analyticsSandboxDeliveries)
        .values({
          kind: 'event',
          email: event.email,
          name: event.name,
          uniqueId: event.uniqueId,
          properties: event.properties,
          value: event.value,
          occurredAt: event.time,
        })
        .onConflictDoNothing();
    },
    async upsertProfile(profile) {
      await db.insert(analyticsSandboxDeliveries).values({
        kind: 'profile',
        email: profile.email,
        properties: {
          ...profile.properties,
          ...(profile.firstName ? { first_name: profile.firstName } : {}),
          ...(profile.lastName ? { last_name: profile.lastName } : {}),
          ...(profile.phoneNumber ? { phone_number: profile.phoneNumber } : {}),
        },
        occurredAt: new Date(),
      });
    },
    /** Newest first. */
    async list(page: number, pageSize: number): Promise<{ total: number; rows: SandboxDelivery[] }> {
      const [totals] = await db.select({ total: count() }).from(analyticsSandboxDeliveries);
      const rows = await db
        .select()
        .from(analyticsSandboxDeliveries)
        .orderBy(desc(analyticsSandboxDeliveries.deliveredAt), desc(analyticsSandboxDeliveries.id))
        .limit(pageSize)
        .offset((page - 1) * pageSize);
      return { total: totals?.total ?? 0, rows };
    },
  } satisfies AnalyticsPort & { list: unknown };
}
export type SandboxAnalyticsAdapter = ReturnType<typeof createSandboxAnalyticsAdapter>;
