import { ArrowUpCircle, ChevronRight, Loader2 } from 'lucide-react';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import type { Key } from '@keyport/shared/contracts/keys';
import type { UpgradeStatus } from '@keyport/shared/contracts/theme-file-updates';
import { deriveStoreCard } from '@keyport/shared/domain/store-card';
import { tierFromFlags, type Tier } from '@keyport/shared/domain/tiers';
import { Alert } from '../../../components/ui/alert';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { Dialog, DialogContent } from '../../../components/ui/dialog';
import { TIER_STYLES } from '../../../components/ui/tier-style';
import { useOwnKeys } from '../api/get-keys';
import { useUpgradableKeys } from '../api/theme-file-update-queries';
import { THEME_FILE_UPDATE_MESSAGES } from '../messages';
import { slugFor } from '../routing/route-theme-file-update';
import { saveUpgradeChoice } from '../save-upgrade-choice';

/** The two options of §2 dialog 7's 'Upgrade your theme file', and what enables each (§5 upgrade file options). */
export const UPGRADE_FILE_OPTIONS: readonly {
  status: UpgradeStatus;
  title: string;
  from: readonly Tier[];
  to: Tier;
  disabledMessage: string;
}[] = [
  {
    status: 'Lite to Regular',
    title: 'Upgrade LITE to Regular',
    from: ['LITE'],
    to: 'REGULAR',
    disabledMessage: THEME_FILE_UPDATE_MESSAGES.needRegular,
  },
  {
    status: 'Regular to Pro',
    title: 'Upgrade to Pro',
    from: ['LITE', 'REGULAR'],
    to: 'PRO',
    disabledMessage: THEME_FILE_UPDATE_MESSAGES.needPro,
  },
];

/** The target key is connected to a store other than the one the source key's would bring to it (ADR 041). */
export function licensesOtherStore(source: Key, target: Key): boolean {
  const store = (key: Key) => key.myshopify?.toLowerCase() ?? null;
  return source.id !== target.id && store(source) !== null && store(target) !== null && store(target) !== store(source);
}

const choiceClass =
  'flex w-full items-center gap-3 rounded-xl border p-4 text-left transition-colors focus-visible:ring-2 focus-visible:ring-brand-500 focus-visible:outline-none';

/**
 * Quick Actions "Upgrade Files": §2 dialog 7 'Upgrade your theme file' with two options, each enabled only when
 * GET /keys/list_keys_upgrade lists a key with its status (§5). With several stores that could take the upgrade, the
 * person picks the one to upgrade.
 */
export function UpgradeThemeFileDialog({ onClose }: { onClose: () => void }) {
  const navigate = useNavigate();
  const upgradable = useUpgradableKeys();
  const keys = useOwnKeys();
  /** The option chosen, and the store (source key) once picked: then the target key is picked. */
  const [picking, setPicking] = useState<{ option: (typeof UPGRADE_FILE_OPTIONS)[number]; source: Key | null } | null>(
    null,
  );
  const statuses = new Set(upgradable.data?.upgradable_keys.map((entry) => entry.upgrade_status));
  const loading = upgradable.isPending || keys.isPending;
  const failed = upgradable.isError || keys.isError;

  /** Every key of the option's edition that the server lists as upgradable: the customer picks one. */
  function targetsFor(option: (typeof UPGRADE_FILE_OPTIONS)[number]): Key[] {
    const listed = upgradable.data?.upgradable_keys.filter((entry) => entry.upgrade_status === option.status) ?? [];
    return (keys.data ?? []).filter(
      (key) => tierFromFlags(key) === option.to && listed.some((entry) => entry.key === key.api_key),
    );
  }
  const sourcesFor = (option: (typeof UPGRADE_FILE_OPTIONS)[number]) =>
    (keys.data ?? []).filter((key) => option.from.includes(tierFromFlags(key)));

  function go(source: Key, target: Key) {
    const slug = slugFor(tierFromFlags(source), tierFromFlags(target));
    if (!slug) return;
    void navigate(saveUpgradeChoice({ slug, source, target }));
  }

  /** With one way to go, go; else ask for the store, then for the key (a key licensing another store says so). */
  function pickSource(option: (typeof UPGRADE_FILE_OPTIONS)[number], source: Key) {
    const targets = targetsFor(option);
    if (targets.length === 1 && !licensesOtherStore(source, targets[0]!)) go(source, targets[0]!);
    else setPicking({ option, source });
  }

  function choose(option: (typeof UPGRADE_FILE_OPTIONS)[number]) {
    const sources = sourcesFor(option);
    if (targetsFor(option).length === 0 || sources.length === 0) return;
    if (sources.length === 1) pickSource(option, sources[0]!);
    else setPicking({ option, source: null });
  }

  return (
    <Dialog open onOpenChange={(open) => (open ? undefined : onClose())}>
      <DialogContent
        title="Upgrade your theme file"
        description={
          picking?.source
            ? `Which ${picking.option.to} key should license ${deriveStoreCard(picking.source).name}?`
            : picking
              ? `Which store's theme should become ${picking.option.to}?`
              : 'Move a store to a higher edition of the theme, keeping its settings and content.'
        }
      >
        {failed ? (
          <Alert>{THEME_FILE_UPDATE_MESSAGES.loadOptionsFailed}</Alert>
        ) : loading ? (
          <p role="status" className="flex items-center gap-2 text-sm text-slate-600">
            <Loader2 aria-hidden="true" className="size-4 animate-spin motion-reduce:animate-none" />
            Checking your licenses…
          </p>
        ) : picking && !picking.source ? (
          <div className="space-y-3">
            <ul className="space-y-2">
              {sourcesFor(picking.option).map((key) => {
                const card = deriveStoreCard(key);
                const tier = tierFromFlags(key);
                return (
                  <li key={key.id}>
                    <button
                      type="button"
                      onClick={() => pickSource(picking.option, key)}
                      className={`${choiceClass} border-slate-200 hover:border-brand-400 hover:bg-brand-50`}
                    >
                      <Badge className={TIER_STYLES[tier].badge}>{tier}</Badge>
                      <span className="min-w-0 flex-1">
                        <span className="block truncate font-semibold text-slate-900">{card.name}</span>
                        <span className="block truncate font-mono text-xs text-slate-500">{key.api_key}</span>
                      </span>
                      <ChevronRight aria-hidden="true" className="size-5 shrink-0 text-slate-400" />
                    </button>
                  </li>
                );
              })}
            </ul>
            <Button variant="secondary" onClick={() => setPicking(null)}>
              Back
            </Button>
          </div>
        ) : picking?.source ? (
          <div className="space-y-3">
            <ul className="space-y-2">
              {targetsFor(picking.option).map((key) => {
                const card = deriveStoreCard(key);
                const other = licensesOtherStore(picking.source!, key);
                const noteId = `upgrade-target-${key.id}-note`;
                return (
                  <li key={key.id}>
                    <button
                      type="button"
                      aria-describedby={noteId}
                      onClick={() => go(picking.source!, key)}
                      className={`${choiceClass} ${other ? 'border-amber-300 bg-amber-50 hover:border-amber-500' : 'border-slate-200 hover:border-brand-400 hover:bg-brand-50'}`}
                    >
                      <Badge className={TIER_STYLES[picking.option.to].badge}>{picking.option.to}</Badge>
                      <span className="min-w-0 flex-1">
                        <span className="block truncate font-mono text-sm font-semibold text-slate-900">
                          {key.api_key}
                        </span>
                        <span id={noteId} className={`block text-sm ${other ? 'text-amber-900' : 'text-slate-600'}`}>
                          {other
                            ? `Licenses ${card.domain} now: ${card.domain} will lose its license if you use this key.`
                            : card.installed
                              ? `Connected to ${card.domain}`
                              : 'No store connected'}
                        </span>
                      </span>
                      <ChevronRight aria-hidden="true" className="size-5 shrink-0 text-slate-400" />
                    </button>
                  </li>
                );
              })}
            </ul>
            <Button
              variant="secondary"
              onClick={() =>
                setPicking(sourcesFor(picking.option).length > 1 ? { option: picking.option, source: null } : null)
              }
            >
              Back
            </Button>
          </div>
        ) : (
          <ul className="space-y-3">
            {UPGRADE_FILE_OPTIONS.map((option) => {
              const enabled =
                statuses.has(option.status) && targetsFor(option).length > 0 && sourcesFor(option).length > 0;
              const reasonId = `upgrade-file-${option.to}-reason`;
              return (
                <li key={option.status}>
                  <button
                    type="button"
                    disabled={!enabled}
                    aria-describedby={reasonId}
                    onClick={() => choose(option)}
                    className={`${choiceClass} border-slate-200 hover:border-brand-400 hover:bg-brand-50 disabled:cursor-not-allowed disabled:bg-slate-50 disabled:opacity-70`}
                  >
                    <ArrowUpCircle aria-hidden="true" className="size-6 shrink-0 text-brand-600" />
                    <span className="min-w-0 flex-1">
                      <span className="block font-semibold text-slate-900">{option.title}</span>
                      <span id={reasonId} className="block text-sm text-slate-600">
                        {enabled
                          ? `Your ${option.from.join(' or ')} theme files become the latest ${option.to} edition.`
                          : option.disabledMessage}
                      </span>
                    </span>
                    <ChevronRight aria-hidden="true" className="size-5 shrink-0 text-slate-400" />
                  </button>
                </li>
              );
            })}
          </ul>
        )}
      </DialogContent>
    </Dialog>
  );
}
