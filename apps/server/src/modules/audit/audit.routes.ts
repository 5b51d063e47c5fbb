import type { FastifyInstance } from 'fastify';
import * as contracts from '@keyport/shared/contracts/audit';
import { registerRoute } from '../../http/route';

const asNumber = (value: string | undefined) => (value === undefined ? undefined : Number(value));

/** GET /staff/audit-log (staff only). There is deliberately no route that edits or deletes an entry. */
export async function auditRoutes(app: FastifyInstance) {
  const { audit } = app.services;
  registerRoute(app, contracts.listAuditLog, async ({ query }) => {
    const keyObject = query.key === undefined ? {} : { objectType: 'license_key', objectId: query.key };
    const { entries, nextCursor } = await audit.list({
      actorType: query.actor_type,
      actor: query.actor,
      customer: query.customer ?? query.customer_user_id,
      action: query.action,
      objectType: query.object_type,
      objectId: query.object_id,
      ...keyObject,
      beforeId: asNumber(query.before_id),
      limit: Math.min(Math.max(Number(query.limit ?? 100), 1), 500),
    });
    return { entries, next_cursor: nextCursor };
  });
}
