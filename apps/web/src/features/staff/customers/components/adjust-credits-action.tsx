import { useId, useState } from 'react';
import { Input } from '../../../../components/ui/input';
import { ConfirmAction } from '../../components/confirm-action';
import { useAdjustCredits } from '../api/adjust-credits';

const LIMIT = 1000;

/** "Grant or remove credits": a positive amount grants, a negative one removes (never below zero, the server says). */
export function AdjustCreditsAction({ email }: { email: string }) {
  const adjust = useAdjustCredits();
  const [amount, setAmount] = useState('');
  const id = useId();
  return (
    <ConfirmAction
      triggerLabel="Grant or remove credits"
      triggerSize="md"
      title="Grant or remove credits"
      description={`A positive amount adds credits to ${email}'s balance, a negative one takes them away. The reason is shown to the customer in their credit history.`}
      confirmLabel="Change balance"
      onConfirm={(reason) => {
        const n = Number(amount);
        if (amount.trim() === '' || !Number.isInteger(n) || n === 0 || Math.abs(n) > LIMIT)
          return Promise.reject(new Error(`Enter a whole number of credits between -${LIMIT} and ${LIMIT}, not 0.`));
        return adjust.mutateAsync({ body: { email, amount: n, reason } });
      }}
    >
      <div className="space-y-1.5">
        <label htmlFor={`${id}-amount`} className="block text-sm font-medium text-slate-700">
          Credits
        </label>
        <Input
          id={`${id}-amount`}
          type="number"
          inputMode="numeric"
          step={1}
          value={amount}
          onChange={(event) => setAmount(event.target.value)}
          aria-describedby={`${id}-amount-hint`}
        />
        <p id={`${id}-amount-hint`} className="text-xs text-slate-500">
          For example 5 to grant five credits, -2 to remove two.
        </p>
      </div>
    </ConfirmAction>
  );
}
