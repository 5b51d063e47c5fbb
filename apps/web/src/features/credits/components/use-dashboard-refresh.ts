import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef } from 'react';
import { CREDIT_EVENTS, CREDIT_TIMINGS, onCreditEvent } from '../../../lib/credit-events';
import { queryKeys } from '../../../lib/query-keys';

/**
 * §4, §9: the dashboard (keys list and balance) is fetched again 500 ms after `licenseRedeemed` or
 * `creditsBalanceChanged`, and 200 ms after a report succeeds; `creditsDialogClosed` fetches the balance again.
 * Requests that come together are one refresh, at the earliest time asked for (a report also announces its balance
 * change: one refresh at 200 ms, not two). Returns `refreshAfter(ms)` for the report.
 */
export function useDashboardRefresh(): (delayMs: number) => void {
  const queryClient = useQueryClient();
  const pending = useRef<{ timer: ReturnType<typeof setTimeout>; at: number } | null>(null);

  const refreshAfter = useCallback(
    (delayMs: number) => {
      const at = Date.now() + delayMs;
      if (pending.current && pending.current.at <= at) return;
      if (pending.current) clearTimeout(pending.current.timer);
      const timer = setTimeout(() => {
        pending.current = null;
        void queryClient.invalidateQueries({ queryKey: queryKeys.keys });
        void queryClient.invalidateQueries({ queryKey: queryKeys.creditsBalance });
        void queryClient.invalidateQueries({ queryKey: queryKeys.creditHistory });
      }, delayMs);
      pending.current = { timer, at };
    },
    [queryClient],
  );

  useEffect(() => {
    const afterCreditEvent = () => refreshAfter(CREDIT_TIMINGS.refreshAfterCreditEventMs);
    const stops = [
      onCreditEvent(CREDIT_EVENTS.licenseRedeemed, afterCreditEvent),
      onCreditEvent(CREDIT_EVENTS.creditsBalanceChanged, afterCreditEvent),
      onCreditEvent(CREDIT_EVENTS.creditsDialogClosed, () => {
        void queryClient.invalidateQueries({ queryKey: queryKeys.creditsBalance });
      }),
    ];
    return () => {
      stops.forEach((stop) => stop());
      if (pending.current) clearTimeout(pending.current.timer);
      pending.current = null;
    };
  }, [queryClient, refreshAfter]);

  return refreshAfter;
}
