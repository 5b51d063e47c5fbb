import { ArrowUpCircle } from 'lucide-react';
import { lazy, Suspense, useRef } from 'react';
import type { Key } from '@keyport/shared/contracts/keys';
import { deriveStoreCard, storeCardLabel } from '@keyport/shared/domain/store-card';
import { tierFromFlags } from '@keyport/shared/domain/tiers';
import { Button } from '../../../components/ui/button';
import { useUrlDialog } from '../../../lib/url-dialog';

// The dialogs (options, forms, VAT, the card field) load when first opened: the dashboard's initial bundle stays
// within budget.
const UpgradeOptionsDialog = lazy(() => import('./upgrade-options-dialog'));
const UpgradeDialog = lazy(() => import('./upgrade-dialog'));

/**
 * The key card's "Upgrade" button (absent on PRO cards): it opens Upgrade Options (§2 dialog 5), whose Upgrade
 * License opens the Upgrade License dialog. That dialog stays open when the upgrade turns the card PRO (the success
 * screen is still showing); focus returns to the button on close. Both live in the URL (`?dialog=upgrade-options` or
 * `upgrade`, `&key=<id>`): Back closes them and stays on the page, a reload opens them again (ADR 042).
 */
export function UpgradeLicenseAction({
  licenseKey,
  onUpgradeTheme,
}: {
  licenseKey: Key;
  /** Upgrade Options' "Upgrade Theme": the app composes the theme-file-updates feature here. */
  onUpgradeTheme: () => void;
}) {
  const dialog = useUrlDialog();
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
        <Button
          ref={button}
          size="sm"
          variant="secondary"
          onClick={() => dialog.open('upgrade-options', licenseKey.id)}
        >
          <ArrowUpCircle aria-hidden="true" className="size-4 max-[400px]:hidden" />
          Upgrade
          {/* Nine cards, nine buttons: each names its key. */}
          <span className="sr-only"> {storeCardLabel(deriveStoreCard(licenseKey))}</span>
        </Button>
      )}
      {dialog.isOpen('upgrade-options', licenseKey.id) ? (
        <Suspense fallback={null}>
          <UpgradeOptionsDialog
            licenseKey={licenseKey}
            onUpgradeLicense={() => dialog.switchTo('upgrade', licenseKey.id)}
            onUpgradeTheme={() => {
              dialog.closeInPlace(); // the theme-file update may go to its page at once
              onUpgradeTheme();
            }}
            onClose={dialog.close}
            // Going on to Upgrade License, that dialog then takes focus and gives it back to the button on close.
            onCloseAutoFocus={focusButton}
          />
        </Suspense>
      ) : null}
      {dialog.isOpen('upgrade', licenseKey.id) ? (
        <Suspense fallback={null}>
          <UpgradeDialog licenseKey={licenseKey} onClose={dialog.close} onCloseAutoFocus={focusButton} />
        </Suspense>
      ) : null}
    </>
  );
}
