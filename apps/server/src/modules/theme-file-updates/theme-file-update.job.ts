import type { JobDefinition, Jobs } from '../jobs/jobs.service';
import { THEME_UPGRADE_JOB, THEME_UPGRADE_SWEEP_JOB, type ThemeUpgradesService } from './theme-upgrades.service';

/** How often expired runs' files are deleted (across all processes). */
export const THEME_UPGRADE_SWEEP_INTERVAL_MS = 60 * 60_000;

/**
 * One theme upgrade run as a job (ADR 041): a refusal ends the run as failed at once (the handler returns); an
 * unexpected failure is tried again, and ends the run on the last attempt. The lease is renewed while it runs.
 */
export function themeUpgradeRunJob(
  service: Pick<ThemeUpgradesService, 'executeRun'>,
): JobDefinition<{ runId: number }> {
  const definition: JobDefinition<{ runId: number }> = {
    kind: THEME_UPGRADE_JOB,
    what: 'theme upgrade run',
    maxAttempts: 3,
    backoff: { baseMs: 5_000, maxMs: 60_000 },
    leaseMs: 60_000,
    describe: (payload) => `Theme upgrade run ${payload.runId}`,
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
export function scheduleThemeUpgradeJobs(
  jobs: Pick<Jobs, 'register' | 'schedule'>,
  service: Pick<ThemeUpgradesService, 'executeRun' | 'sweepExpired'>,
): void {
  jobs.register(themeUpgradeRunJob(service));
  jobs.register({
    kind: THEME_UPGRADE_SWEEP_JOB,
    what: 'theme upgrade clean-up',
    maxAttempts: 3,
    backoff: { baseMs: 60_000, maxMs: 10 * 60_000 },
    leaseMs: 10 * 60_000,
    describe: () => "Delete expired theme upgrades' files, end abandoned runs",
    async handler(_payload, context) {
      await service.sweepExpired(context.now());
    },
  });
  jobs.schedule('theme-upgrades-sweep', THEME_UPGRADE_SWEEP_JOB, THEME_UPGRADE_SWEEP_INTERVAL_MS);
}
