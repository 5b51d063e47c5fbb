import type { QueryClient } from '@tanstack/react-query';
import { emitCreditEvent } from '../../../lib/credit-events';
import { queryKeys } from '../../../lib/query-keys';
import { creditsBalanceQueryOptions } from '../api/get-credits-balance';

/**
 * After a completed credit-pack order (card, PayPal in the dialog, or the PayPal return): reads the new balance
 * (every view of it updates), tells the rest of the app with `creditsBalanceChanged` (§4), and marks the history
 * stale. Answers the balance, or null when it could not be read (the event then waits for the next change).
 */
export async function announceCreditsPurchase(queryClient: QueryClient): Promise<number | null> {
  void queryClient.invalidateQueries({ queryKey: queryKeys.creditsBalance, refetchType: 'none' });
  void queryClient.invalidateQueries({ queryKey: queryKeys.creditHistory });
  let balance: number;
  try {
    ({ balance } = await queryClient.fetchQuery({ ...creditsBalanceQueryOptions(), staleTime: 0 }));
  } catch {
    return null;
  }
  emitCreditEvent('creditsBalanceChanged', { balance });
  return balance;
}
