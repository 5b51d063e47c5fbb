import { ArrowUpCircle } from 'lucide-react';
import { lazy, Suspense, useRef, useState } from 'react';
import type { Key } from '@keyport/shared/contracts/keys';
import { tierFromFlags } from '@keyport/shared/domain/tiers';
import { Button } from '../../../components/ui/button';

// The dialogs (options, forms, VAT, the card field) load when first opened: the dashboard's initial bundle stays
// within budget.
const UpgradeOptionsDialog = lazy(() => import('./upgrade-options-dialog'));
const UpgradeDialog = lazy(() => import('./upgrade-dialog'));

/**
 * The key card's "Upgrade" button (absent on PRO cards): it opens Upgrade Options (§2 dialog 5), whose Upgrade
 * License opens the Upgrade License dialog. That dialog stays open when the upgrade turns the card PRO (the success
 * screen is still showing); focus returns to the button on close.
 */
export function UpgradeLicenseAction({
  licenseKey,
  onUpgradeTheme,
}: {
  licenseKey: Key;
  /** Upgrade Options' "Upgrade Theme": the app composes the theme-upgrades feature here. */
  onUpgradeTheme: () => void;
}) {
  const [open, setOpen] = useState<'options' | 'license' | null>(null);
  const button = useRef<HTMLButtonElement>(null);
  const isPro = tierFromFlags(licenseKey) === 'PRO';
  const focusButton = (event: Event) => {
    if (!button.current) return; // the key became PRO: the button is gone
    event.preventDefault();
    button.current.focus();
  };

  return (
    <>
      {isPro ? null : (
        <Button ref={button} size="sm" variant="secondary" onClick={() => setOpen('options')}>
          <ArrowUpCircle aria-hidden="true" className="size-4 max-[400px]:hidden" />
          Upgrade
        </Button>
      )}
      {open === 'options' ? (
        <Suspense fallback={null}>
          <UpgradeOptionsDialog
            licenseKey={licenseKey}
            onUpgradeLicense={() => setOpen('license')}
            onUpgradeTheme={() => {
              setOpen(null);
              onUpgradeTheme();
            }}
            onClose={() => setOpen(null)}
            // Going on to Upgrade License, that dialog then takes focus and gives it back to the button on close.
            onCloseAutoFocus={focusButton}
          />
        </Suspense>
      ) : null}
      {open === 'license' ? (
        <Suspense fallback={null}>
          <UpgradeDialog licenseKey={licenseKey} onClose={() => setOpen(null)} onCloseAutoFocus={focusButton} />
        </Suspense>
      ) : null}
    </>
  );
}
