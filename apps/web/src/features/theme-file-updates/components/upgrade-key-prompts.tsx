import { ChevronRight, Loader2 } from 'lucide-react';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import type { Key } from '@keyport/shared/contracts/keys';
import { deriveStoreCard } from '@keyport/shared/domain/store-card';
import { tierFromFlags } from '@keyport/shared/domain/tiers';
import { Alert } from '../../../components/ui/alert';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { TIER_STYLES } from '../../../components/ui/tier-style';
import { checkUpdateAvailability } from '../api/check-availability';
import { THEME_FILE_UPDATE_MESSAGES } from '../messages';
import { saveUpgradeChoice } from '../save-upgrade-choice';
import { UpgradeThemeFileDialog } from './upgrade-theme-file-dialog';

/**
 * update_file without a chosen key (Quick Actions "Update Theme"): the person picks the license whose store to
 * update; the availability check runs first (a newer release than the store's, else 'No upgrade available…').
 */
export function UpdateKeyPicker({ keys }: { keys: readonly Key[] }) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [checking, setChecking] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);

  async function pick(key: Key) {
    setChecking(key.id);
    setError(null);
    try {
      const availability = await checkUpdateAvailability(queryClient, key.api_key);
      if (availability.kind === 'error') setError(availability.message);
      else
        await navigate(
          saveUpgradeChoice({ slug: 'update', source: key, target: key, sourceVersion: availability.storeVersion }),
          { replace: true },
        );
    } catch {
      setError(THEME_FILE_UPDATE_MESSAGES.checkOptionsFailed);
    } finally {
      setChecking(null);
    }
  }

  if (keys.length === 0) return <Alert tone="info">Add a key to get started</Alert>;
  return (
    <section aria-labelledby="pick-key-heading" className="space-y-3">
      <h2 id="pick-key-heading" className="font-semibold text-slate-900">
        Which store&apos;s theme do you want to update?
      </h2>
      <ul className="space-y-2">
        {keys.map((key) => {
          const card = deriveStoreCard(key);
          const tier = tierFromFlags(key);
          return (
            <li key={key.id}>
              <button
                type="button"
                disabled={checking !== null}
                onClick={() => void pick(key)}
                className="flex w-full items-center gap-3 rounded-xl border border-slate-200 bg-white p-4 text-left hover:border-brand-400 hover:bg-brand-50 focus-visible:ring-2 focus-visible:ring-brand-500 focus-visible:outline-none disabled:opacity-70"
              >
                <Badge className={TIER_STYLES[tier].badge}>{tier}</Badge>
                <span className="min-w-0 flex-1">
                  <span className="block truncate font-semibold text-slate-900">{card.name}</span>
                  <span className="block truncate font-mono text-xs text-slate-500">{key.api_key}</span>
                </span>
                {checking === key.id ? (
                  <Loader2
                    aria-hidden="true"
                    className="size-5 animate-spin text-slate-400 motion-reduce:animate-none"
                  />
                ) : (
                  <ChevronRight aria-hidden="true" className="size-5 shrink-0 text-slate-400" />
                )}
              </button>
            </li>
          );
        })}
      </ul>
      {error ? <Alert>{error}</Alert> : null}
    </section>
  );
}

/** An upgrade_file page opened without a chosen upgrade (a bookmark, cleared storage): choose one. */
export function UpgradeChoicePrompt() {
  const [open, setOpen] = useState(false);
  return (
    <div className="space-y-3">
      <Alert tone="info">Choose which store to upgrade, and to which edition.</Alert>
      <Button onClick={() => setOpen(true)}>Choose an upgrade</Button>
      {open ? <UpgradeThemeFileDialog onClose={() => setOpen(false)} /> : null}
    </div>
  );
}
