import { Coins } from 'lucide-react';
import type { CreditPack } from '@keyport/shared/contracts/credits';
import { creditsLabel } from '@keyport/shared/domain/credit-packs';
import { ChoiceCard } from '../../../components/ui/choice-card';

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
        {packs.map((pack) => (
          <ChoiceCard
            key={pack.id}
            data-testid="credit-pack"
            name="credit-pack"
            value={pack.id}
            checked={pack.id === selected}
            disabled={disabled}
            onSelect={() => onSelect(pack.id)}
          >
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
          </ChoiceCard>
        ))}
      </div>
    </fieldset>
  );
}
