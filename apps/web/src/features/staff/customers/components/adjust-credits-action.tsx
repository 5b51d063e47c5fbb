import { useState } from 'react';
import { Field } from '../../../../components/ui/field';
import { ConfirmAction } from '../../components/confirm-action';
import { useAdjustCredits } from '../api/adjust-credits';

const LIMIT = 1000;

/** "Grant or remove credits": a positive amount grants, a negative one removes (never below zero, the server says). */
export function AdjustCreditsAction({ email }: { email: string }) {
  const adjust = useAdjustCredits();
  const [amount, setAmount] = useState('');
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
      <Field
        label="Credits"
        type="number"
        inputMode="numeric"
        step={1}
        value={amount}
        onChange={(event) => setAmount(event.target.value)}
        hint="For example 5 to grant five credits, -2 to remove two."
      />
    </ConfirmAction>
  );
}
