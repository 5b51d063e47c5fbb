import { TIERS, type Tier } from '@keyport/shared/domain/tiers';
import { useId, useState } from 'react';
import { Field } from '../../../../components/ui/field';
import { ConfirmAction } from '../../components/confirm-action';
import { useMintCustomerKeys } from '../api/mint-customer-keys';

const MAX_KEYS = 20;
const selectClass =
  'h-10 w-full rounded-lg border border-slate-300 bg-white px-3 text-sm text-slate-900 focus:border-brand-500 focus:ring-2 focus:ring-brand-100 focus:outline-none';

/** "Mint keys": keys of a tier owned by the customer from the start, each emailed to them. */
export function MintKeysAction({ customerId, email }: { customerId: number; email: string }) {
  const mint = useMintCustomerKeys();
  const [tier, setTier] = useState<Tier>('REGULAR');
  const [count, setCount] = useState('1');
  const id = useId();
  return (
    <ConfirmAction
      triggerLabel="Mint keys"
      triggerVariant="primary"
      triggerSize="md"
      title="Mint keys for this customer"
      description={`New license keys are added to ${email}'s account and each is emailed to them.`}
      confirmLabel="Mint keys"
      onConfirm={(reason) => {
        const n = Number(count);
        if (!Number.isInteger(n) || n < 1 || n > MAX_KEYS)
          return Promise.reject(new Error(`Mint between 1 and ${MAX_KEYS} keys.`));
        return mint.mutateAsync({ params: { id: String(customerId) }, body: { tier, count: n, reason } });
      }}
    >
      <div className="grid grid-cols-2 gap-3">
        <div className="space-y-1.5">
          <label htmlFor={`${id}-tier`} className="block text-sm font-medium text-slate-700">
            Tier
          </label>
          <select
            id={`${id}-tier`}
            value={tier}
            onChange={(event) => setTier(event.target.value as Tier)}
            className={selectClass}
          >
            {TIERS.map((value) => (
              <option key={value} value={value}>
                {value}
              </option>
            ))}
          </select>
        </div>
        <Field
          label="How many"
          type="number"
          inputMode="numeric"
          min={1}
          max={MAX_KEYS}
          value={count}
          onChange={(event) => setCount(event.target.value)}
        />
      </div>
    </ConfirmAction>
  );
}
