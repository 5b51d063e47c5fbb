import type { Db } from '../../src/db/client';
import type { SandboxRetry } from '../../src/integrations/payments/sandbox-event-delivery';
import { createJobs, type Jobs } from '../../src/modules/jobs/jobs.service';

const silent = { info: () => {}, warn: () => {}, error: () => {} };

/**
 * A job engine of a test's own, for sandbox providers a test builds itself (outside the app): it never polls, so
 * their events are delivered when the test awaits the provider's `idle()` (as a worker of the app would, at once).
 */
export const testJobs = (db: Db): Jobs => createJobs({ db, log: silent, pollMs: 3_600_000 });

/** A failed sandbox delivery is tried once more, 10 ms later. */
export const QUICK_SANDBOX_RETRY: SandboxRetry = { maxAttempts: 2, backoff: { baseMs: 10, maxMs: 10 } };

/**
 * A test's own job engine that runs like an app's: started, so each commit's nudge delivers its sandbox events at once
 * (for tests that watch the webhook's effects rather than awaiting `idle()`). The test stops it in its `afterAll`.
 */
export function startedTestJobs(db: Db): Jobs {
  const jobs = testJobs(db);
  jobs.start();
  return jobs;
}
