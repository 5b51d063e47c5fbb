import { JOB_NOT_DEAD, JOB_NOT_FOUND, type StaffJob, type StaffJobFilter } from '@keyport/shared/contracts/staff-jobs';
import type { Db } from '../../db/client';
import { conflict, notFound } from '../../http/errors';
import type { AuditService } from '../audit/audit.service';
import type { Jobs } from './jobs.service';
import * as repo from './jobs.repo';

const DEFAULT_PAGE = 50;

/**
 * Staff's Jobs page (issue 19): what failed and what was given up, and a retry of a dead job (audited with the
 * staff member's reason, in the transaction that queues it again). A job is shown by its kind's summary, never its
 * payload.
 */
export function createStaffJobsService(deps: {
  db: Db;
  jobs: Pick<Jobs, 'describe' | 'maxAttemptsOf' | 'nudge' | 'now'>;
  audit: Pick<AuditService, 'record'>;
}) {
  const { db, jobs, audit } = deps;

  const toStaffJob = (row: repo.JobRow): StaffJob => ({
    id: row.id,
    kind: row.kind,
    summary: jobs.describe(row),
    status: row.status,
    attempts: row.attempts,
    max_attempts: jobs.maxAttemptsOf(row.kind),
    last_error: row.lastError,
    created_at: row.createdAt.toISOString(),
    run_at: row.runAt.toISOString(),
    finished_at: row.finishedAt?.toISOString() ?? null,
  });

  return {
    /** GET /staff/jobs: dead (default) or retrying jobs, newest first. */
    async list(query: { status?: StaffJobFilter; cursor?: string; limit?: number }) {
      const limit = query.limit ?? DEFAULT_PAGE;
      const rows = await repo.listProblems(db, {
        status: query.status ?? 'dead',
        beforeId: query.cursor ? Number(query.cursor) : null,
        limit: limit + 1,
      });
      const page = rows.slice(0, limit);
      return {
        jobs: page.map(toStaffJob),
        next_cursor: rows.length > limit ? String(page.at(-1)!.id) : null,
      };
    },

    /** POST /staff/jobs/:id/retry: a dead job from its first attempt again; 404 unknown, 409 not dead. */
    async retry(staffId: number, id: number, reason: string): Promise<StaffJob> {
      const retried = await db.transaction(async (tx) => {
        // Due now by the engine's clock (the one its workers compare `run_at` with).
        const row = await repo.requeueDead(tx, id, jobs.now());
        if (!row) return null;
        await audit.record(tx, {
          actor: { type: 'staff', id: staffId },
          action: 'job.retried',
          object: { type: 'job', id: row.id },
          reason,
          data: { kind: row.kind, last_error: row.lastError },
        });
        return row;
      });
      if (!retried) {
        const existing = await repo.findJob(db, id);
        throw existing ? conflict(JOB_NOT_DEAD, 'job_not_dead') : notFound(JOB_NOT_FOUND, 'job_not_found');
      }
      jobs.nudge();
      return toStaffJob(retried);
    },
  };
}
export type StaffJobsService = ReturnType<typeof createStaffJobsService>;
