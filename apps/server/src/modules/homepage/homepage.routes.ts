import type { FastifyInstance } from 'fastify';
import * as contracts from '@keyport/shared/contracts/homepage';
import { forbidden } from '../../http/errors';
import { registerRoute } from '../../http/route';
import { isStaff } from '@keyport/shared/domain/roles';

export async function homepageRoutes(app: FastifyInstance) {
  const homepage = app.services.homepage;

  registerRoute(app, contracts.getHomepageSettings, async ({ user, query }, _request, reply) => {
    // Every signed-in user reads the published feed; only staff may preview the draft.
    const preview = query.preview === 'true';
    if (preview && !isStaff(user)) throw forbidden();
    reply.header('cache-control', 'no-store');
    return homepage.getUpdates(preview ? 'draft' : 'published');
  });
  registerRoute(app, contracts.saveHomepageSettings, ({ user, body }) =>
    homepage.saveUpdates(body.updates, body.publish, { id: user.id, reason: body.reason }),
  );
}
