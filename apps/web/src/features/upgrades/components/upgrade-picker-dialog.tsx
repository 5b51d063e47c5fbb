import { useQueryClient } from '@tanstack/react-query';
import { ArrowRight, ChevronLeft, Loader2 } from 'lucide-react';
import { useState } from 'react';
import type { Key } from '@keyport/shared/contracts/keys';
import { deriveStoreCard } from '@keyport/shared/domain/store-card';
import { tierFromFlags } from '@keyport/shared/domain/tiers';
import type { DashboardPickerSlug, UpgradePath } from '@keyport/shared/domain/upgrade-paths';
import { Alert } from '../../../components/ui/alert';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { Dialog, DialogContent } from '../../../components/ui/dialog';
import { TIER_STYLES } from '../../../components/ui/tier-style';
import { upgradeOptionsQueryOptions } from '../api/get-upgrade-options';
import { PICKER_CHOICES, PICKER_MESSAGES, pickerChoice, pickerPath, pickUpgradeKey } from '../picker/pick-upgrade-key';

/** The dashboard's keys, as the page has them (GET /keys/). */
export interface PickerKeys {
  data: Key[] | undefined;
  isPending: boolean;
  isError: boolean;
}

interface UpgradePickerDialogProps {
  keys: PickerKeys;
  /** The key and path to open the Upgrade License dialog with. */
  onPicked: (key: Key, path: UpgradePath) => void;
  onClose: () => void;
}

/**
 * §2 dialog 3, the dashboard's paid upgrade picker (§4): LITE to REGULAR (lite-to-reg) or LITE or REGULAR to PRO
 * (reg-lite-to-pro). It finds the eligible key, lets the person choose when there are several, checks the key's
 * options with the server, then hands over to the Upgrade License dialog with the target selected.
 */
export default function UpgradePickerDialog({ keys, onPicked, onClose }: UpgradePickerDialogProps) {
  const queryClient = useQueryClient();
  const [choosing, setChoosing] = useState<{ slug: DashboardPickerSlug; keys: Key[] } | null>(null);
  const [chosenKeyId, setChosenKeyId] = useState<number | null>(null);
  const [message, setMessage] = useState<string | null>(null);
  const [checking, setChecking] = useState(false);

  async function check(key: Key, slug: DashboardPickerSlug) {
    const path = pickerPath(key, slug);
    if (!path) return setMessage(PICKER_MESSAGES.noUpgradeForLevel);
    setChecking(true);
    setMessage(null);
    try {
      const answer = await queryClient.fetchQuery(upgradeOptionsQueryOptions(key.api_key));
      if (!answer.options.some((option) => option.path === path)) {
        setMessage(PICKER_MESSAGES.noUpgradeForLevel);
        return;
      }
      onPicked(answer.key, path);
    } catch {
      setMessage(PICKER_MESSAGES.optionsFailed);
    } finally {
      setChecking(false);
    }
  }

  function choose(slug: DashboardPickerSlug) {
    setMessage(null);
    if (keys.isError || !keys.data) return setMessage(PICKER_MESSAGES.keysFailed);
    const verdict = pickUpgradeKey(keys.data, slug);
    if (verdict.kind === 'none') return setMessage(verdict.message);
    if (verdict.kind === 'one') return void check(verdict.key, slug);
    setChosenKeyId(null);
    setChoosing({ slug, keys: verdict.keys });
  }

  const chosenKey = choosing?.keys.find((key) => key.id === chosenKeyId) ?? null;

  return (
    <Dialog open onOpenChange={(open) => (open || checking ? undefined : onClose())}>
      <DialogContent
        title="Upgrade a License"
        busy={checking}
        description={
          choosing
            ? `Which license should move to ${pickerChoice(choosing.slug).to}?`
            : 'Choose the upgrade you want to buy. We find the license it applies to.'
        }
      >
        {choosing ? (
          <form
            className="space-y-4"
            onSubmit={(event) => {
              event.preventDefault();
              if (chosenKey) void check(chosenKey, choosing.slug);
            }}
          >
            <fieldset className="space-y-2">
              <legend className="sr-only">License to upgrade</legend>
              {choosing.keys.map((key) => {
                const card = deriveStoreCard(key);
                const tier = tierFromFlags(key);
                return (
                  <label
                    key={key.id}
                    data-testid="picker-key"
                    className="flex cursor-pointer items-center gap-3 rounded-xl border border-slate-200 p-3 has-[:checked]:border-brand-500 has-[:checked]:bg-brand-50"
                  >
                    <input
                      type="radio"
                      name="picker-key"
                      value={key.id}
                      checked={chosenKeyId === key.id}
                      onChange={() => setChosenKeyId(key.id)}
                      disabled={checking}
                      className="size-4 accent-brand-600"
                    />
                    <span className="min-w-0 flex-1">
                      <span className="block truncate font-medium text-slate-900">{card.name}</span>
                      <code className="block font-mono text-xs break-all text-slate-500">{key.api_key}</code>
                    </span>
                    <Badge className={TIER_STYLES[tier].badge}>{tier}</Badge>
                  </label>
                );
              })}
            </fieldset>
            {message ? <Alert>{message}</Alert> : null}
            <div className="flex flex-wrap justify-between gap-2">
              <Button
                type="button"
                variant="secondary"
                disabled={checking}
                onClick={() => {
                  setChoosing(null);
                  setMessage(null);
                }}
              >
                <ChevronLeft aria-hidden="true" className="size-4" />
                Back
              </Button>
              <Button type="submit" disabled={!chosenKey || checking}>
                {checking ? (
                  <Loader2 aria-hidden="true" className="size-4 animate-spin motion-reduce:animate-none" />
                ) : null}
                Continue
              </Button>
            </div>
          </form>
        ) : (
          <div className="space-y-4">
            <ul className="space-y-3">
              {PICKER_CHOICES.map((choice) => (
                <li key={choice.slug}>
                  <button
                    type="button"
                    data-testid="picker-choice"
                    disabled={checking || keys.isPending}
                    onClick={() => choose(choice.slug)}
                    className="flex w-full items-center gap-3 rounded-xl border border-slate-200 p-4 text-left hover:border-brand-400 hover:bg-brand-50 focus-visible:ring-2 focus-visible:ring-brand-500 focus-visible:outline-none disabled:cursor-not-allowed disabled:opacity-60"
                  >
                    <span className="min-w-0 flex-1">
                      <span className="block font-semibold text-slate-900">{choice.title}</span>
                      <span className="block text-sm text-slate-600">For a {choice.from.join(' or ')} license</span>
                    </span>
                    <ArrowRight aria-hidden="true" className="size-5 shrink-0 text-slate-400" />
                  </button>
                </li>
              ))}
            </ul>
            {checking || keys.isPending ? (
              <p role="status" className="flex items-center gap-2 text-sm text-slate-600">
                <Loader2 aria-hidden="true" className="size-4 animate-spin motion-reduce:animate-none" />
                Checking your licenses…
              </p>
            ) : null}
            {message ? <Alert>{message}</Alert> : null}
          </div>
        )}
      </DialogContent>
    </Dialog>
  );
}
