import { useQuery } from '@tanstack/react-query';
import { staffListCreditPacks } from '@keyport/shared/contracts/credits';
import { staffQueryOptions } from '../../api/staff-api';

/** GET /staff/credit-packs: every pack, retired ones too. */
export const creditPacksQueryOptions = () => staffQueryOptions(staffListCreditPacks);
export const useCreditPacks = () => useQuery(creditPacksQueryOptions());
