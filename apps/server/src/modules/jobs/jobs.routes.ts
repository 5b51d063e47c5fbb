import type { FastifyInstance } from 'fastify';
import * as contracts from '@keyport/shared/contracts/staff-jobs';
import { registerRoute } from '../../http/route';

/** Staff's Jobs page (issue 19): failed and dead jobs, and the retry of a dead one. */
export async function jobsRoutes(app: FastifyInstance) {
  const { staffJobs } = app.services;
  registerRoute(app, contracts.staffListJobs, ({ query }) => staffJobs.list(query));
  registerRoute(app, contracts.staffRetryJob, async ({ user, params, body }) => ({
    job: await staffJobs.retry(user.id, Number(params.id), body.reason),
  }));
}
