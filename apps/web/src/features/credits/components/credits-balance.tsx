import { Coins } from 'lucide-react';
import { cn } from '../../../lib/cn';
import { useCreditsBalance } from '../api/get-credits-balance';
import { creditsLabel, pendingReviewLabel } from '../messages';

/**
 * The caller's balance ("Credits: N"), the credits store reports hold back until staff approve them ("1 credit pending
 * review", ADR 037), and while a clawback left credits owed, "You owe N credits" (redeeming waits until it is repaid).
 * Shown in the user menu, both credits dialogs and the credit history.
 */
export function CreditsBalance({ className }: { className?: string }) {
  const balance = useCreditsBalance();
  return (
    <div className={cn('flex items-start gap-2 text-sm text-slate-700', className)} data-testid="credits-balance">
      <Coins aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-amber-600" />
      <div>
        <p>
          Credits:{' '}
          <span className="font-semibold text-slate-900">
            {balance.data ? balance.data.balance : balance.isError ? 'unavailable' : '…'}
          </span>
        </p>
        {balance.data && balance.data.pending > 0 ? (
          <p className="text-amber-800" data-testid="credits-pending">
            {pendingReviewLabel(balance.data.pending)}
          </p>
        ) : null}
        {balance.data && balance.data.owed > 0 ? (
          <p className="text-red-700">You owe {creditsLabel(balance.data.owed)}</p>
        ) : null}
      </div>
    </div>
  );
}
