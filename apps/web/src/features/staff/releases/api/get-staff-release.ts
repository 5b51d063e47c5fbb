import { useQuery } from '@tanstack/react-query';
import { staffGetRelease } from '@keyport/shared/contracts/releases';
import { callApi } from '../../../../lib/api-client';
import { staffQueryOptions } from '../../api/staff-api';

export const getStaffRelease = (id: number) => callApi(staffGetRelease, { params: { id: String(id) } });

/** GET /staff/releases/:id: the per-file manifest and the stores running the release. */
export const staffReleaseQueryOptions = (id: number) =>
  staffQueryOptions(staffGetRelease, { params: { id: String(id) } });

export const useStaffRelease = (id: number) => useQuery(staffReleaseQueryOptions(id));
