import type { Db } from '../../db/client';
import type { Jobs } from './jobs.service';
import * as repo from './jobs.repo';

export const PRUNE_FINISHED_JOBS = 'jobs.prune-finished';
const DAY_MS = 24 * 60 * 60_000;
/** Finished jobs are kept this long (for an operator's questions); dead ones stay until staff retry them. */
export const KEEP_FINISHED_MS = 14 * DAY_MS;

/** Registers the daily clean-up of finished jobs and its schedule (once a day across all processes). */
export function schedulePruneFinishedJobs(jobs: Pick<Jobs, 'register' | 'schedule'>, db: Db): void {
  jobs.register({
    kind: PRUNE_FINISHED_JOBS,
    what: 'finished jobs clean-up',
    maxAttempts: 3,
    backoff: { baseMs: 60_000, maxMs: 10 * 60_000 },
    leaseMs: 5 * 60_000,
    describe: () => 'Delete jobs finished more than 14 days ago',
    async handler(_payload, context) {
      await repo.pruneFinished(db, new Date(context.now().getTime() - KEEP_FINISHED_MS));
    },
  });
  jobs.schedule('prune-finished-jobs', PRUNE_FINISHED_JOBS, DAY_MS);
}
