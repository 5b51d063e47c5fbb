import { useQuery } from '@tanstack/react-query';
import { staffListSightings } from '@keyport/shared/contracts/licenses';
import type { QueryOf } from '@keyport/shared/contracts/define';
import { staffQueryOptions } from '../../api/staff-api';

export type SightingsQuery = NonNullable<QueryOf<typeof staffListSightings>>;

/** GET /staff/license-sightings: domains seen running a token no key of ours covers, most recent first. */
export const sightingsQueryOptions = (query: SightingsQuery) => staffQueryOptions(staffListSightings, { query });

export const useSightings = (query: SightingsQuery) => useQuery(sightingsQueryOptions(query));
