import { Check, Coins } from 'lucide-react';
import type { CreditPack } from '@keyport/shared/contracts/credits';
import { creditsLabel } from '@keyport/shared/domain/credit-packs';
import { cn } from '../../../lib/cn';

interface CreditPackCardsProps {
  packs: CreditPack[];
  selected: number | null;
  onSelect: (packId: number) => void;
  disabled?: boolean;
}

/** The credit packs as cards (name, credits, price); a radio group, one choice. */
export function CreditPackCards({ packs, selected, onSelect, disabled }: CreditPackCardsProps) {
  return (
    <fieldset className="min-w-0">
      <legend className="mb-2 text-sm font-semibold text-slate-900">Credit packs</legend>
      <div className="grid gap-2">
        {packs.map((pack) => {
          const checked = pack.id === selected;
          return (
            <label
              key={pack.id}
              data-testid="credit-pack"
              className={cn(
                'relative flex cursor-pointer items-center gap-3 rounded-xl border p-3 transition-colors',
                'has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-brand-500',
                checked ? 'border-brand-500 bg-brand-50/60' : 'border-slate-200 bg-white hover:border-slate-300',
                disabled && 'cursor-not-allowed opacity-60',
              )}
            >
              <input
                type="radio"
                name="credit-pack"
                value={pack.id}
                checked={checked}
                disabled={disabled}
                onChange={() => onSelect(pack.id)}
                className="sr-only"
              />
              <span
                aria-hidden="true"
                className={cn(
                  'flex size-5 shrink-0 items-center justify-center rounded-full border',
                  checked ? 'border-brand-600 bg-brand-600 text-white' : 'border-slate-300',
                )}
              >
                {checked ? <Check className="size-3.5" /> : null}
              </span>
              <span className="min-w-0 flex-1">
                <span className="block text-sm font-semibold break-words text-slate-900">{pack.name}</span>
                {/* Staff usually name a pack by its credits ('12 credits'): the count shows once then. */}
                {pack.name === creditsLabel(pack.credits) ? null : (
                  <span className="flex items-center gap-1 text-xs text-slate-600">
                    <Coins aria-hidden="true" className="size-3.5 text-amber-500" />
                    {creditsLabel(pack.credits)}
                  </span>
                )}
              </span>
              <span className="text-base font-semibold text-slate-900 tabular-nums">{pack.price}</span>
            </label>
          );
        })}
      </div>
    </fieldset>
  );
}
