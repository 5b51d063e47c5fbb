import { lazy, Suspense, useEffect, useState } from 'react';
import { CREDIT_EVENTS, CREDIT_TIMINGS, onCreditEvent } from '../../../lib/credit-events';
import { onOpenCreditsFeatureDialog } from '../open-credits-dialog';
import { useDashboardRefresh } from './use-dashboard-refresh';

// Both dialogs load when first opened: the dashboard's initial bundle keeps only these listeners.
const BuyWithCreditsDialog = lazy(() => import('./buy-with-credits-dialog'));
const ReportStoresDialog = lazy(() => import('./report-stores-dialog'));
const CreditHistoryDialog = lazy(() => import('./credit-history-dialog'));

type Open = 'redeem' | 'report' | 'history' | null;

/**
 * The credits dialogs (§2 dialogs 9 and 10, the credit history) for the whole signed-in app: dialog 9 opens from the
 * user menu and the team member's Buy With Credits button, the history from the user menu, dialog 10 on
 * `openReportDialog` from anywhere. Also refreshes the dashboard after credit events (§4). `canBuyCredits`: the person
 * can buy credit packs (team members), which decides where too few credits leads (dialog 9).
 */
export function CreditsDialogsHost({ canBuyCredits }: { canBuyCredits: boolean }) {
  const [open, setOpen] = useState<Open>(null);
  const refreshAfter = useDashboardRefresh();

  useEffect(() => {
    const stopFeature = onOpenCreditsFeatureDialog(setOpen);
    const stopReport = onCreditEvent(CREDIT_EVENTS.openReportDialog, () => setOpen('report'));
    return () => {
      stopFeature();
      stopReport();
    };
  }, []);

  const close = () => setOpen(null);
  return (
    <Suspense fallback={null}>
      {open === 'redeem' ? <BuyWithCreditsDialog onClose={close} canBuyCredits={canBuyCredits} /> : null}
      {open === 'history' ? <CreditHistoryDialog onClose={close} /> : null}
      {open === 'report' ? (
        <ReportStoresDialog onClose={close} onReported={() => refreshAfter(CREDIT_TIMINGS.refreshAfterReportMs)} />
      ) : null}
    </Suspense>
  );
}
