import { lazy, Suspense, useEffect, useState } from 'react';
import { focusedOpener } from '../../../components/ui/dialog';
import { emitCreditEvent } from '../../../lib/credit-events';

// The checkout's code (packs, billing, card, PayPal) loads the first time a team member opens it.
const BuyCreditsDialog = lazy(() => import('./buy-credits-dialog'));

/**
 * §4 `window.openCreditsDialog`: set while a team member's dashboard is shown (and deleted on unmount), opening the
 * "Buy Credits" dialog; closing it emits `creditsDialogClosed` with whether a pack was bought. For anyone else
 * (`enabled` false) there is no hook and the dialog's code is never fetched.
 */
export function CreditsCheckoutHost({ enabled }: { enabled: boolean }) {
  const [open, setOpen] = useState<{ opener: HTMLElement | null } | null>(null);

  useEffect(() => {
    if (!enabled) return;
    window.openCreditsDialog = () => setOpen({ opener: focusedOpener() });
    return () => {
      delete window.openCreditsDialog;
    };
  }, [enabled]);

  if (!enabled || !open) return null;
  return (
    <Suspense fallback={null}>
      <BuyCreditsDialog
        opener={open.opener}
        onClose={(purchased) => {
          setOpen(null);
          emitCreditEvent('creditsDialogClosed', { purchased });
        }}
      />
    </Suspense>
  );
}
