import { useId, useState } from 'react';
import { useNavigate } from 'react-router';
import type { Key } from '@keyport/shared/contracts/keys';
import { deriveStoreCard } from '@keyport/shared/domain/store-card';
import { tierFromFlags, type Tier } from '@keyport/shared/domain/tiers';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { Dialog, DialogContent } from '../../../components/ui/dialog';
import { THEME_FILE_UPDATE_MESSAGES } from '../messages';
import { chooseSource, higherTiersOwned } from '../routing/route-theme-file-update';
import { saveUpgradeChoice } from '../save-upgrade-choice';

/** §2 dialog 7's names of the choices: from LITE 'Lite to Regular' / 'Lite to Pro'; from REGULAR 'Upgrade to Pro'. */
export function choiceLabel(from: Tier, to: Tier): string {
  if (from === 'LITE') return to === 'PRO' ? 'Lite to Pro' : 'Lite to Regular';
  return 'Upgrade to Pro';
}

interface ThemeSourceChooserDialogProps {
  card: Key;
  keys: readonly Key[];
  onClose: () => void;
}

/**
 * §2 dialog 6 "Choose Theme Upgrade Source": the higher-tier license types the person owns (§5: only their other
 * licenses of a higher tier). With none, it says so and offers Update Current Theme Files.
 */
export function ThemeSourceChooserDialog({ card, keys, onClose }: ThemeSourceChooserDialogProps) {
  const navigate = useNavigate();
  const tier = tierFromFlags(card);
  const tiers = higherTiersOwned(keys, card);
  const [selected, setSelected] = useState<Tier | null>(tiers.length === 1 ? tiers[0]! : null);
  const [error, setError] = useState<string | null>(null);
  const errorId = useId();
  const name = deriveStoreCard(card).name;

  function go() {
    const choice = chooseSource(card, keys, selected);
    if (choice.kind === 'error') {
      setError(choice.message);
      return;
    }
    void navigate(saveUpgradeChoice({ slug: choice.slug, source: choice.source, target: choice.target }));
  }

  function updateCurrent() {
    void navigate(saveUpgradeChoice({ slug: 'update', source: card, target: card }));
  }

  return (
    <Dialog open onOpenChange={(open) => (open ? undefined : onClose())}>
      <DialogContent
        title="Choose Theme Upgrade Source"
        description={`Which of your licenses should ${name}'s ${tier} theme files be upgraded to?`}
      >
        {tiers.length === 0 ? (
          <div className="space-y-4">
            <Alert tone="info">
              {tier === 'LITE'
                ? THEME_FILE_UPDATE_MESSAGES.noHigherTier
                : 'You have no license of a higher tier than this one.'}
            </Alert>
            <p className="text-sm text-slate-600">
              You can still move this store to the newest {tier} release, keeping your customisations.
            </p>
            <div className="flex flex-wrap justify-end gap-2">
              <Button variant="secondary" onClick={onClose}>
                Cancel
              </Button>
              <Button onClick={updateCurrent}>Update Current Theme Files</Button>
            </div>
          </div>
        ) : (
          <form
            onSubmit={(event) => {
              event.preventDefault();
              go();
            }}
            className="space-y-4"
          >
            <fieldset aria-describedby={error ? errorId : undefined}>
              <legend className="mb-2 text-sm font-medium text-slate-900">Upgrade your theme from</legend>
              <div className="space-y-2">
                {tiers.map((to) => (
                  <label
                    key={to}
                    className="flex cursor-pointer items-center gap-3 rounded-xl border border-slate-200 p-3 has-[:checked]:border-brand-500 has-[:checked]:bg-brand-50"
                  >
                    <input
                      type="radio"
                      name="theme-file-update-source"
                      value={to}
                      checked={selected === to}
                      onChange={() => {
                        setSelected(to);
                        setError(null);
                      }}
                      className="size-4 accent-brand-600"
                    />
                    <span className="min-w-0 flex-1">
                      <span className="block font-semibold text-slate-900">{choiceLabel(tier, to)}</span>
                      <span className="block text-sm text-slate-600">
                        Your {tier} theme files become the latest {to} edition, with your settings carried over.
                      </span>
                    </span>
                  </label>
                ))}
              </div>
            </fieldset>
            {error ? (
              <p id={errorId} role="alert" className="text-sm text-red-700">
                {error}
              </p>
            ) : null}
            <div className="flex flex-wrap justify-end gap-2">
              <Button type="button" variant="secondary" onClick={updateCurrent}>
                Update Current Theme Files
              </Button>
              <Button type="submit">Continue</Button>
            </div>
          </form>
        )}
      </DialogContent>
    </Dialog>
  );
}
