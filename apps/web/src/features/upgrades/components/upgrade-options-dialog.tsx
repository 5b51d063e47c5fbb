import { ArrowUpCircle, ChevronRight, FileUp, Loader2 } from 'lucide-react';
import type { Key } from '@keyport/shared/contracts/keys';
import { formatUsd } from '@keyport/shared/domain/money';
import { deriveStoreCard } from '@keyport/shared/domain/store-card';
import { Alert } from '../../../components/ui/alert';
import { Dialog, DialogContent } from '../../../components/ui/dialog';
import { useUpgradeOptions } from '../api/get-upgrade-options';

/** §8 "Upgrade flows": the card's options could not be read (POST /upgrades/options failed). */
export const CHECK_UPGRADE_OPTIONS_FAILED = 'Failed to check upgrade options';
/** §8 "Upgrade flows": the key has no higher tier (it is PRO, perhaps since another tab upgraded it). */
export const NO_UPGRADE_FOR_LEVEL = 'No upgrade available for your license level';

interface UpgradeOptionsDialogProps {
  licenseKey: Key;
  onUpgradeLicense: () => void;
  /** Upgrade Theme: the theme-file update's routing (§4), composed by the app. */
  onUpgradeTheme: () => void;
  onClose: () => void;
  onCloseAutoFocus?: (event: Event) => void;
}

const choiceClass =
  'flex w-full items-center gap-3 rounded-xl border p-4 text-left transition-colors focus-visible:ring-2 focus-visible:ring-brand-500 focus-visible:outline-none';

/**
 * §2 dialog 5 "Upgrade Options", from the card's Upgrade button: Upgrade License (the Upgrade License dialog) or
 * Upgrade Theme (the theme-file update, §4 routing). The license choice says what the key can move to, from the
 * server's options.
 */
export default function UpgradeOptionsDialog({
  licenseKey,
  onUpgradeLicense,
  onUpgradeTheme,
  onClose,
  onCloseAutoFocus,
}: UpgradeOptionsDialogProps) {
  const options = useUpgradeOptions(licenseKey.api_key);
  const list = options.data?.options ?? [];
  const none = options.isSuccess && list.length === 0;
  const cheapest = list.length > 0 ? Math.min(...list.map((option) => option.price_cents)) : null;
  const targets = [...new Set(list.map((option) => option.to))].join(' or ');
  const storeName = deriveStoreCard(licenseKey).name;

  return (
    <Dialog open onOpenChange={(open) => (open ? undefined : onClose())}>
      <DialogContent
        title="Upgrade Options"
        description={`What would you like to upgrade for ${storeName}?`}
        onCloseAutoFocus={onCloseAutoFocus}
      >
        <ul className="space-y-3">
          <li>
            <button
              type="button"
              disabled={none}
              onClick={onUpgradeLicense}
              className={`${choiceClass} border-slate-200 hover:border-brand-400 hover:bg-brand-50 disabled:cursor-not-allowed disabled:border-slate-200 disabled:bg-slate-50 disabled:opacity-70`}
            >
              <ArrowUpCircle aria-hidden="true" className="size-6 shrink-0 text-brand-600" />
              <span className="min-w-0 flex-1">
                <span className="block font-semibold text-slate-900">Upgrade License</span>
                <span className="block text-sm text-slate-600">
                  {options.isPending ? (
                    <span className="inline-flex items-center gap-1">
                      <Loader2 aria-hidden="true" className="size-3 animate-spin motion-reduce:animate-none" />
                      Checking your upgrades…
                    </span>
                  ) : cheapest !== null ? (
                    `Move to ${targets}, from ${formatUsd(cheapest)}`
                  ) : (
                    'Move this license to a higher tier'
                  )}
                </span>
              </span>
              <ChevronRight aria-hidden="true" className="size-5 shrink-0 text-slate-400" />
            </button>
          </li>
          <li>
            <button
              type="button"
              onClick={onUpgradeTheme}
              className={`${choiceClass} border-slate-200 hover:border-brand-400 hover:bg-brand-50`}
            >
              <FileUp aria-hidden="true" className="size-6 shrink-0 text-brand-600" />
              <span className="min-w-0 flex-1">
                <span className="block font-semibold text-slate-900">Upgrade Theme</span>
                <span className="block text-sm text-slate-600">
                  Move your store&apos;s theme files to a newer or higher edition, keeping your customisations
                </span>
              </span>
              <ChevronRight aria-hidden="true" className="size-5 shrink-0 text-slate-400" />
            </button>
          </li>
        </ul>
        {options.isError ? (
          <Alert className="mt-4">{CHECK_UPGRADE_OPTIONS_FAILED}</Alert>
        ) : none ? (
          <p role="status" className="mt-4 text-sm text-slate-600">
            {NO_UPGRADE_FOR_LEVEL}
          </p>
        ) : null}
      </DialogContent>
    </Dialog>
  );
}
