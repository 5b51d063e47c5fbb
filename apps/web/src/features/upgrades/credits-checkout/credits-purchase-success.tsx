import { CheckCircle2 } from 'lucide-react';
import { Button } from '../../../components/ui/button';
import { CREDITS_CHECKOUT_MESSAGES } from './pay-for-credit-pack';

/** The credits checkout's success state: how many credits were added and, once read, the new balance. */
export function CreditsPurchaseSuccess({
  credits,
  balance,
  onClose,
}: {
  credits: number;
  balance: number | null;
  onClose: () => void;
}) {
  return (
    <div className="flex flex-col items-center px-2 py-8 text-center" data-testid="credits-purchase-success">
      <CheckCircle2 aria-hidden="true" className="mb-3 size-12 text-emerald-600" />
      <h3 className="text-xl font-semibold text-slate-900">{CREDITS_CHECKOUT_MESSAGES.added(credits)}</h3>
      <p className="mt-2 max-w-md text-sm text-slate-600" data-testid="credits-balance-after">
        {balance === null ? 'Your new balance shows in the menu.' : CREDITS_CHECKOUT_MESSAGES.balance(balance)}
      </p>
      <div className="mt-6">
        <Button onClick={onClose}>Close</Button>
      </div>
    </div>
  );
}
