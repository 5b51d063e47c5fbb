import { staffGetRelease, staffListReleases, staffMakeReleaseCurrent } from '@keyport/shared/contracts/releases';
import { useStaffMutation } from '../../api/staff-api';

/** POST /staff/releases/:id/make-current {reason}; refreshes the release lists and details. */
export const useMakeReleaseCurrent = () =>
  useStaffMutation(staffMakeReleaseCurrent, { invalidates: [staffListReleases, staffGetRelease] });
