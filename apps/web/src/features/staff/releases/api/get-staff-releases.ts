import { useQuery } from '@tanstack/react-query';
import { staffListReleases } from '@keyport/shared/contracts/releases';
import type { Tier } from '@keyport/shared/domain/tiers';
import { callApi } from '../../../../lib/api-client';
import { staffQueryOptions } from '../../api/staff-api';

export const getStaffReleases = (edition: Tier) => callApi(staffListReleases, { query: { edition } });

/** GET /staff/releases?edition=: the edition's versions, newest first, with the current flag. */
export const staffReleasesQueryOptions = (edition: Tier) =>
  staffQueryOptions(staffListReleases, { query: { edition } });

export const useStaffReleases = (edition: Tier) => useQuery(staffReleasesQueryOptions(edition));
