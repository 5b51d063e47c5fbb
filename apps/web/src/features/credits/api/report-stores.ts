import { useMutation, useQueryClient } from '@tanstack/react-query';
import { reportStores as reportStoresContract } from '@keyport/shared/contracts/credits';
import type { CreditsBalance } from '@keyport/shared/contracts/credits';
import { callApi } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

export const reportStores = (storeDomains: string[]) => callApi(reportStoresContract, { body: { storeDomains } });

/**
 * POST /credits/report-store: five domains; one credit when all five qualify, pending until staff approve the report
 * (ADR 037). The answer carries the new balance and pending credits.
 */
export function useReportStores() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: reportStores,
    onSuccess: (result) => {
      queryClient.setQueryData<CreditsBalance>(queryKeys.creditsBalance, (current) =>
        current ? { ...current, balance: result.balance, pending: result.pending } : current,
      );
    },
  });
}
