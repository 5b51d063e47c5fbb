import { z } from 'zod/mini';
import { defineContract } from './define';
import { StaffPageLimitSchema, StaffReasonSchema } from './staff';
import { bigIdString } from './ids';

/**
 * Issue 19 (ADR 038): the job engine's problems for staff — jobs given up after their last attempt (`dead`) and jobs
 * that failed and wait for their next attempt (`retrying`) — and a retry of a dead job. A job is shown by its kind's
 * one-line summary, never its payload (an email job's payload would lead to a reset link).
 */
export const STAFF_JOB_FILTERS = ['dead', 'retrying'] as const;
export type StaffJobFilter = (typeof STAFF_JOB_FILTERS)[number];

/** Job ids are 64-bit in the database; 15 digits keep them exact in JSON numbers (and refuse anything larger). */
/** Jobs are `bigint` rows: their ids go past 2^31 − 1. */
const JobIdSchema = bigIdString();

export const StaffJobSchema = z.object({
  id: z.int(),
  kind: z.string(),
  summary: z.string(),
  status: z.enum(['queued', 'running', 'done', 'dead', 'cancelled']),
  attempts: z.int(),
  /** The kind's attempts before it is dead; null for a kind this version of the portal does not run. */
  max_attempts: z.nullable(z.int()),
  last_error: z.nullable(z.string()),
  created_at: z.string(),
  /** When it is (or was) due: a retrying job's next attempt. */
  run_at: z.string(),
  finished_at: z.nullable(z.string()),
});
export type StaffJob = z.infer<typeof StaffJobSchema>;

export const staffListJobs = defineContract({
  operationId: 'staffListJobs',
  method: 'GET',
  path: '/staff/jobs',
  summary: 'Jobs given up (dead, the default) or failing and waiting for a retry, newest first (staff only)',
  tags: ['staff'],
  access: 'staff',
  query: z.object({
    status: z.optional(z.enum(STAFF_JOB_FILTERS)),
    cursor: z.optional(JobIdSchema),
    limit: StaffPageLimitSchema,
  }),
  response: z.object({ jobs: z.array(StaffJobSchema), next_cursor: z.nullable(z.string()) }),
});

export const JOB_NOT_FOUND = 'Job not found.';
export const JOB_NOT_DEAD = 'Only a job that was given up can be retried.';

/** Queues a dead job again from its first attempt; the audit log keeps who and why. */
export const staffRetryJob = defineContract({
  operationId: 'staffRetryJob',
  method: 'POST',
  path: '/staff/jobs/:id/retry',
  summary: 'Queue a dead job again from its first attempt (staff only)',
  tags: ['staff'],
  access: 'staff',
  params: z.object({ id: JobIdSchema }),
  body: z.object({ reason: StaffReasonSchema }),
  response: z.object({ job: StaffJobSchema }),
});
