import { ArrowUpCircle } from 'lucide-react';
import { lazy, Suspense, useRef, useState } from 'react';
import type { Key } from '@keyport/shared/contracts/keys';
import { tierFromFlags } from '@keyport/shared/domain/tiers';
import { Button } from '../../../components/ui/button';

// The dialog (forms, VAT, the card field) loads when first opened: the dashboard's initial bundle stays within budget.
const UpgradeDialog = lazy(() => import('./upgrade-dialog'));

/**
 * The key card's "Upgrade" button (absent on PRO cards) and its Upgrade License dialog. The dialog stays open when
 * the upgrade turns the card PRO (the success screen is still showing); focus returns to the button on close.
 */
export function UpgradeLicenseAction({ licenseKey }: { licenseKey: Key }) {
  const [open, setOpen] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  const isPro = tierFromFlags(licenseKey) === 'PRO';

  return (
    <>
      {isPro ? null : (
        <Button ref={button} size="sm" variant="secondary" onClick={() => setOpen(true)}>
          <ArrowUpCircle aria-hidden="true" className="size-4 max-[400px]:hidden" />
          Upgrade
        </Button>
      )}
      {open ? (
        <Suspense fallback={null}>
          <UpgradeDialog
            licenseKey={licenseKey}
            onClose={() => setOpen(false)}
            onCloseAutoFocus={(event) => {
              if (!button.current) return; // the key became PRO: the button is gone
              event.preventDefault();
              button.current.focus();
            }}
          />
        </Suspense>
      ) : null}
    </>
  );
}
