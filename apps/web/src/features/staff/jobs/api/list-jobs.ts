import { useQuery } from '@tanstack/react-query';
import { staffListJobs } from '@keyport/shared/contracts/staff-jobs';
import type { QueryOf } from '@keyport/shared/contracts/define';
import { staffQueryOptions } from '../../api/staff-api';

export type JobsQuery = NonNullable<QueryOf<typeof staffListJobs>>;

/** GET /staff/jobs: jobs given up (the default) or failing and waiting for their next attempt, newest first. */
export const jobsQueryOptions = (query: JobsQuery) => staffQueryOptions(staffListJobs, { query });

export const useJobs = (query: JobsQuery) => useQuery(jobsQueryOptions(query));
