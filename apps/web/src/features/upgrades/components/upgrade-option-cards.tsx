import { Check } from 'lucide-react';
import type { UpgradeOption } from '@keyport/shared/contracts/upgrades';
import type { UpgradePath } from '@keyport/shared/domain/upgrade-paths';
import { Badge } from '../../../components/ui/badge';
import { TIER_STYLES } from '../../../components/ui/tier-style';
import { cn } from '../../../lib/cn';

interface UpgradeOptionCardsProps {
  options: UpgradeOption[];
  selected: UpgradePath | null;
  onSelect: (path: UpgradePath) => void;
  disabled?: boolean;
}

/** §2 dialog 4: the upgrade options as cards (to, from, price); a radio group, one choice. */
export function UpgradeOptionCards({ options, selected, onSelect, disabled }: UpgradeOptionCardsProps) {
  return (
    <fieldset className="min-w-0">
      <legend className="mb-2 text-sm font-semibold text-slate-900">Upgrade options</legend>
      <div className="grid gap-2">
        {options.map((option) => {
          const checked = option.path === selected;
          return (
            <label
              key={option.path}
              data-testid="upgrade-option"
              className={cn(
                'relative flex cursor-pointer items-center gap-3 rounded-xl border p-3 transition-colors',
                'has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-brand-500',
                checked ? 'border-brand-500 bg-brand-50/60' : 'border-slate-200 bg-white hover:border-slate-300',
                disabled && 'cursor-not-allowed opacity-60',
              )}
            >
              <input
                type="radio"
                name="upgrade-option"
                value={option.path}
                checked={checked}
                disabled={disabled}
                onChange={() => onSelect(option.path)}
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
                <span className="flex flex-wrap items-center gap-1.5 text-sm font-semibold text-slate-900">
                  Upgrade to <Badge className={TIER_STYLES[option.to].badge}>{option.to}</Badge>
                </span>
                <span className="block text-xs text-slate-600">From {option.from}</span>
              </span>
              <span className="text-base font-semibold text-slate-900 tabular-nums">{option.price}</span>
            </label>
          );
        })}
      </div>
    </fieldset>
  );
}
