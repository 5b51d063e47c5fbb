import type { FastifyInstance } from 'fastify';
import * as contracts from '@keyport/shared/contracts/analytics';
import { registerRoute } from '../../http/route';

export async function analyticsRoutes(app: FastifyInstance) {
  const { analytics, analyticsSandbox } = app.services;

  // Answered at once: the event waits in the outbox, a dead provider never delays or fails the person's request.
  // Issue 19: the contract admits only the browser's events; their money fields and `value` are dropped here (amounts
  // reach the provider only in the server's own purchase events, built from settled orders).
  registerRoute(app, contracts.trackAnalyticsEvent, async ({ user, body }) => {
    await analytics.track(user, {
      eventName: body.eventName,
      properties: contracts.withoutMoneyProperties(body.properties ?? {}),
      uniqueId: body.unique_id,
    });
    return { queued: true as const };
  });

  registerRoute(app, contracts.identifyAnalyticsProfile, async ({ user, body }) => {
    await analytics.identify(user, {
      ...body,
      ...(body.properties ? { properties: contracts.withoutMoneyProperties(body.properties) } : {}),
    });
    return { queued: true as const };
  });

  registerRoute(app, contracts.listAnalyticsDeliveries, async ({ query }) => {
    const page = Number(query.page ?? 1);
    const pageSize = Number(query.page_size ?? 50);
    const { total, rows } = analyticsSandbox ? await analyticsSandbox.list(page, pageSize) : { total: 0, rows: [] };
    return {
      adapter: analytics.adapter,
      page,
      page_size: pageSize,
      total,
      events: rows.map((row) => ({
        id: row.id,
        kind: row.kind,
        email: row.email,
        name: row.name,
        unique_id: row.uniqueId,
        properties: row.properties as contracts.AnalyticsDelivery['properties'],
        value: row.value,
        time: row.occurredAt.toISOString(),
        delivered_at: row.deliveredAt.toISOString(),
      })),
    };
  });
}
