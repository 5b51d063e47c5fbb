import { useQuery } from '@tanstack/react-query';
import type { QueryOf } from '@keyport/shared/contracts/define';
import { staffListUpgradeTokens } from '@keyport/shared/contracts/upgrades';
import { staffQueryOptions } from '../../api/staff-api';

export type UpgradeTokensQuery = QueryOf<typeof staffListUpgradeTokens>;

/** GET /staff/upgrade-tokens: one page of tokens (never the tokens themselves), newest first. */
export const upgradeTokensQueryOptions = (query: UpgradeTokensQuery) =>
  staffQueryOptions(staffListUpgradeTokens, { query });
export const useUpgradeTokens = (query: UpgradeTokensQuery) => useQuery(upgradeTokensQueryOptions(query));
