import { useQuery } from '@tanstack/react-query';
import { staffListReports } from '@keyport/shared/contracts/credits';
import type { QueryOf } from '@keyport/shared/contracts/define';
import { callApi } from '../../../../lib/api-client';
import { staffQueryOptions } from '../../api/staff-api';

export type StaffReportsQuery = QueryOf<typeof staffListReports>;

export const getStaffReports = (query: StaffReportsQuery) => callApi(staffListReports, { query });

/** GET /staff/reports: the queue (pending first), one page at a time, with what the portal knows per domain. */
export const staffReportsQueryOptions = (query: StaffReportsQuery) => staffQueryOptions(staffListReports, { query });

export const useStaffReports = (query: StaffReportsQuery) => useQuery(staffReportsQueryOptions(query));
