import type { JobDefinition, Jobs } from '../jobs/jobs.service';
import {
  THEME_FILE_UPDATE_JOB,
  THEME_FILE_UPDATE_SWEEP_JOB,
  type ThemeFileUpdatesService,
} from './theme-file-updates.service';

/** The clean-up's schedule (a `job_schedules` row: migration 0019 renamed it from 'theme-upgrades-sweep'). */
export const THEME_FILE_UPDATE_SWEEP_SCHEDULE = 'theme-file-updates-sweep';

/** How often expired runs' files are deleted (across all processes). */
export const THEME_FILE_UPDATE_SWEEP_INTERVAL_MS = 60 * 60_000;

/**
 * One theme-file update run as a job (ADR 041): a refusal ends the run as failed at once (the handler returns); an
 * unexpected failure is tried again, and ends the run on the last attempt. The lease is renewed while it runs.
 */
export function themeFileUpdateRunJob(
  service: Pick<ThemeFileUpdatesService, 'executeRun'>,
): JobDefinition<{ runId: number }> {
  const definition: JobDefinition<{ runId: number }> = {
    kind: THEME_FILE_UPDATE_JOB,
    what: 'theme-file update run',
    maxAttempts: 3,
    backoff: { baseMs: 5_000, maxMs: 60_000 },
    leaseMs: 60_000,
    describe: (payload) => `Theme-file update run ${payload.runId}`,
    logContext: (payload) => ({ runId: payload.runId }),
    handler: (payload, context) =>
      service.executeRun(payload.runId, {
        signal: context.signal,
        lastAttempt: context.job.attempt >= definition.maxAttempts,
        progress: (value) => context.progress(value),
      }),
  };
  return definition;
}

/** Registers the run job and the hourly clean-up of expired runs' files (ADR 038's recurring schedule). */
export function scheduleThemeFileUpdateJobs(
  jobs: Pick<Jobs, 'register' | 'schedule'>,
  service: Pick<ThemeFileUpdatesService, 'executeRun' | 'sweepExpired'>,
): void {
  jobs.register(themeFileUpdateRunJob(service));
  jobs.register({
    kind: THEME_FILE_UPDATE_SWEEP_JOB,
    what: 'theme-file update clean-up',
    maxAttempts: 3,
    backoff: { baseMs: 60_000, maxMs: 10 * 60_000 },
    leaseMs: 10 * 60_000,
    describe: () => "Delete expired theme-file updates' files, end abandoned runs",
    async handler(_payload, context) {
      await service.sweepExpired(context.now());
    },
  });
  jobs.schedule(THEME_FILE_UPDATE_SWEEP_SCHEDULE, THEME_FILE_UPDATE_SWEEP_JOB, THEME_FILE_UPDATE_SWEEP_INTERVAL_MS);
}
