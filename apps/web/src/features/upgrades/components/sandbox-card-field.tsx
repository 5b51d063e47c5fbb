import { CreditCard } from 'lucide-react';
import { useEffect, useId, useState } from 'react';
import { cardFieldState, formatCardNumber, normalizeCardNumber } from '@keyport/shared/domain/card-payment';
import { cn } from '../../../lib/cn';
import type { CardFieldChange } from '../payment/card-confirmer';
import { sandboxConfirmer } from '../payment/sandbox-confirmer';

/** 'MMYY' typed in any way → 'MM / YY' as the person types. */
function formatExpiry(raw: string): string {
  const digits = raw.replace(/\D/g, '').slice(0, 4);
  if (digits.length === 1 && digits > '1') return `0${digits} / `;
  return digits.length > 2 ? `${digits.slice(0, 2)} / ${digits.slice(2)}` : digits;
}

interface SandboxCardFieldProps {
  onChange: (change: CardFieldChange) => void;
  disabled?: boolean;
}

/**
 * The card field while payments run in the sandbox (a `pk_sandbox_` key): number, expiry and CVC in one box, with
 * Stripe's states and messages (cardFieldState); Stripe's test numbers decide the outcome on the server. Errors show
 * under the box once it has been left, as Stripe's card element does.
 */
export function SandboxCardField({ onChange, disabled }: SandboxCardFieldProps) {
  const id = useId();
  const [card, setCard] = useState({ number: '', expiry: '', cvc: '' });
  const [left, setLeft] = useState(false);
  const state = cardFieldState(card);
  const digits = normalizeCardNumber(card.number);

  useEffect(() => {
    onChange({ complete: state.complete, confirmer: state.complete ? sandboxConfirmer(digits) : null });
  }, [state.complete, digits, onChange]);

  const error = left ? state.error : null;
  // The box shows the focus ring for the three parts (focus-within), so the parts draw no outline of their own.
  const inputStyle = { outline: 'none' };
  const inputClass =
    'min-w-0 bg-transparent text-sm text-slate-900 placeholder:text-slate-400 focus:outline-none disabled:cursor-not-allowed';

  return (
    <div className="space-y-1.5">
      <span id={`${id}-label`} className="block text-sm font-medium text-slate-700">
        Card
      </span>
      <div
        role="group"
        aria-labelledby={`${id}-label`}
        aria-describedby={error ? `${id}-error` : `${id}-hint`}
        onBlur={(event) => {
          if (!event.currentTarget.contains(event.relatedTarget as Node | null)) setLeft(true);
        }}
        className={cn(
          'flex h-10 items-center gap-1.5 rounded-lg border bg-white px-3 focus-within:border-brand-500 focus-within:ring-2 focus-within:ring-brand-100',
          error ? 'border-red-500' : 'border-slate-300',
          disabled && 'bg-slate-50',
        )}
      >
        <CreditCard aria-hidden="true" className="size-4 shrink-0 text-slate-400" />
        <input
          aria-label="Card number"
          aria-invalid={error ? true : undefined}
          inputMode="numeric"
          autoComplete="cc-number"
          placeholder="1234 1234 1234 1234"
          className={cn(inputClass, 'flex-1')}
          style={inputStyle}
          value={card.number}
          disabled={disabled}
          onChange={(event) => setCard({ ...card, number: formatCardNumber(event.target.value) })}
        />
        <input
          aria-label="Expiration date (MM / YY)"
          aria-invalid={error ? true : undefined}
          inputMode="numeric"
          autoComplete="cc-exp"
          placeholder="MM / YY"
          className={cn(inputClass, 'w-[3.75rem]')}
          style={inputStyle}
          value={card.expiry}
          disabled={disabled}
          onChange={(event) =>
            setCard({
              ...card,
              // Deleting the ' / ' separator deletes the digit before it.
              expiry: event.target.value.endsWith(' /') ? card.expiry.slice(0, 1) : formatExpiry(event.target.value),
            })
          }
        />
        <input
          aria-label="CVC"
          aria-invalid={error ? true : undefined}
          inputMode="numeric"
          autoComplete="cc-csc"
          placeholder="CVC"
          className={cn(inputClass, 'w-9')}
          style={inputStyle}
          value={card.cvc}
          disabled={disabled}
          onChange={(event) => setCard({ ...card, cvc: event.target.value.replace(/\D/g, '').slice(0, 4) })}
        />
      </div>
      {error ? (
        <p id={`${id}-error`} role="alert" className="text-sm text-red-600">
          {error}
        </p>
      ) : (
        <p id={`${id}-hint`} className="text-xs text-slate-500">
          Test mode: use 4242 4242 4242 4242, any future date and any CVC.
        </p>
      )}
    </div>
  );
}
