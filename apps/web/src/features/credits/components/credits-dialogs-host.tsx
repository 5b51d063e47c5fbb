import { lazy, Suspense, useEffect, useState } from 'react';
import { CREDIT_EVENTS, CREDIT_TIMINGS, onCreditEvent } from '../../../lib/credit-events';
import { onOpenRedeemDialog } from '../open-redeem-dialog';
import { useDashboardRefresh } from './use-dashboard-refresh';

// Both dialogs load when first opened: the dashboard's initial bundle keeps only these listeners.
const BuyWithCreditsDialog = lazy(() => import('./buy-with-credits-dialog'));
const ReportStoresDialog = lazy(() => import('./report-stores-dialog'));

type Open = 'redeem' | 'report' | null;

/**
 * The credits dialogs (§2 dialogs 9 and 10) for the whole signed-in app: dialog 9 opens from the user menu and the
 * team member's Buy With Credits button, dialog 10 on `openReportDialog` from anywhere. Also refreshes the dashboard
 * after credit events (§4).
 */
export function CreditsDialogsHost() {
  const [open, setOpen] = useState<Open>(null);
  const refreshAfter = useDashboardRefresh();

  useEffect(() => {
    const stopRedeem = onOpenRedeemDialog(() => setOpen('redeem'));
    const stopReport = onCreditEvent(CREDIT_EVENTS.openReportDialog, () => setOpen('report'));
    return () => {
      stopRedeem();
      stopReport();
    };
  }, []);

  const close = () => setOpen(null);
  return (
    <Suspense fallback={null}>
      {open === 'redeem' ? <BuyWithCreditsDialog onClose={close} /> : null}
      {open === 'report' ? (
        <ReportStoresDialog onClose={close} onReported={() => refreshAfter(CREDIT_TIMINGS.refreshAfterReportMs)} />
      ) : null}
    </Suspense>
  );
}
