import type { FastifyInstance } from 'fastify';
import * as contracts from '@keyport/shared/contracts/audit';
import { registerRoute } from '../../http/route';

/** GET /staff/audit-log (staff only). There is deliberately no route that edits or deletes an entry. */
export async function auditRoutes(app: FastifyInstance) {
  const { audit } = app.services;
  registerRoute(app, contracts.listAuditLog, async ({ query }) => {
    const entries = await audit.list({
      customerUserId: query.customer_user_id === undefined ? undefined : Number(query.customer_user_id),
      action: query.action,
      objectType: query.object_type,
      objectId: query.object_id,
      beforeId: query.before_id === undefined ? undefined : Number(query.before_id),
      limit: Math.min(Math.max(Number(query.limit ?? 100), 1), 500),
    });
    return { entries };
  });
}
