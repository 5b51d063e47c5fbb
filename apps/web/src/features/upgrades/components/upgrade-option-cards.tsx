import type { UpgradeOption } from '@keyport/shared/contracts/upgrades';
import type { UpgradePath } from '@keyport/shared/domain/upgrade-paths';
import { Badge } from '../../../components/ui/badge';
import { ChoiceCard } from '../../../components/ui/choice-card';
import { TIER_STYLES } from '../../../components/ui/tier-style';

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
        {options.map((option) => (
          <ChoiceCard
            key={option.path}
            data-testid="upgrade-option"
            name="upgrade-option"
            value={option.path}
            checked={option.path === selected}
            disabled={disabled}
            onSelect={() => onSelect(option.path)}
          >
            <span className="min-w-0 flex-1">
              <span className="flex flex-wrap items-center gap-1.5 text-sm font-semibold text-slate-900">
                Upgrade to <Badge className={TIER_STYLES[option.to].badge}>{option.to}</Badge>
              </span>
              <span className="block text-xs text-slate-600">From {option.from}</span>
            </span>
            <span className="text-base font-semibold text-slate-900 tabular-nums">{option.price}</span>
          </ChoiceCard>
        ))}
      </div>
    </fieldset>
  );
}
