import { staffListJobs, staffRetryJob } from '@keyport/shared/contracts/staff-jobs';
import { useStaffMutation } from '../../api/staff-api';

/** POST /staff/jobs/:id/retry: a dead job runs again from its first attempt (audited with the reason). */
export const useRetryJob = () => useStaffMutation(staffRetryJob, { invalidates: [staffListJobs] });
