import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { Contract, ResponseOf } from '@keyport/shared/contracts/define';
import { callApi, type CallInput } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

type Input<C extends Contract> = Omit<CallInput<C>, 'signal'>;

/**
 * The staff console's calls, all through the shared contracts (house style 10). A page's call is a small file under
 * `features/staff/<area>/api/<verb-noun>.ts` that exports its fetcher, its queryOptions and its hook, built on these:
 *
 *   export const auditLogQueryOptions = (query: AuditLogQuery) => staffQueryOptions(listAuditLog, { query });
 *   export const useAuditLog = (query: AuditLogQuery) => useQuery(auditLogQueryOptions(query));
 *
 * A query's key is `queryKeys.staff(<operationId>, input)`, so a mutation refreshes every page of a list by naming
 * the list's contract: `useStaffMutation(saveThing, { invalidates: [listThings] })`.
 */
export function staffQueryOptions<C extends Contract>(contract: C, input: Input<C> = {}) {
  return queryOptions({
    queryKey: queryKeys.staff(contract.operationId, input),
    queryFn: ({ signal }) => callApi(contract, { ...input, signal }),
    // Staff work on live data: always refetch on mount, never show another staff member's stale write for long.
    staleTime: 0,
  });
}

/** A staff write: calls `contract`, then refetches every query of the `invalidates` contracts. */
export function useStaffMutation<C extends Contract>(
  contract: C,
  { invalidates = [] }: { invalidates?: readonly Contract[] } = {},
) {
  const queryClient = useQueryClient();
  return useMutation<ResponseOf<C>, Error, Input<C>>({
    mutationFn: (input) => callApi(contract, input),
    onSuccess: () =>
      Promise.all(
        invalidates.map((list) => queryClient.invalidateQueries({ queryKey: queryKeys.staff(list.operationId) })),
      ),
  });
}
