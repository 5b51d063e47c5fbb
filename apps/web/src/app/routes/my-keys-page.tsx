import { lazy, Suspense, useEffect, useState } from 'react';
import { isTeamMember } from '@keyport/shared/domain/roles';
import { useSearchParams } from 'react-router';
import { useMe } from '../../features/account/api/get-me';
import { useOpenSettings } from '../../features/account/components/settings-dialog-context';
import { useKeys } from '../../features/keys/api/get-keys';
import { KeysBoard } from '../../features/keys/components/keys-board';
import { BuyWithCreditsButton } from '../../features/credits/components/buy-with-credits-button';
import { QuickActionsPanel } from '../../features/quick-actions/components/quick-actions-panel';
import { UpdatesPanel } from '../../features/updates/components/updates-panel';
import { usePublicConfig } from '../../lib/public-config';
import { DashboardLayout } from '../dashboard-layout';
import { UpgradePicker } from '../../features/upgrades/components/upgrade-picker';
import { hasPaypalReturn } from '../../features/upgrades/components/paypal-return-params';
import { KeyCardActions } from '../key-card-actions';
import { CardUpgradeAction, useUpgradeFilesDialog } from '../theme-file-update-entry';

// §2: paypalReturn / paypalCancel / token / orderId: the PayPal return, handled once, then removed. Its code loads
// only when the URL carries one; it stays mounted after (its success screen outlives the parameters).
const PaypalReturn = lazy(() => import('../../features/upgrades/components/paypal-return'));

/** /customer/my-keys: the keys dashboard with its side panels. `?q=` sets the initial search. */
export function MyKeysPage() {
  const [params, setParams] = useSearchParams();
  const openSettings = useOpenSettings();
  const config = usePublicConfig();
  const me = useMe();
  const keys = useKeys();
  const upgradeFiles = useUpgradeFilesDialog();
  const [paypalReturned, setPaypalReturned] = useState(false);
  if (!paypalReturned && hasPaypalReturn(params)) setPaypalReturned(true);

  // §2: settings=invoices opens the settings dialog on the invoices tab, then the parameter is removed.
  useEffect(() => {
    if (params.get('settings') !== 'invoices') return;
    openSettings('invoices');
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        next.delete('settings');
        return next;
      },
      { replace: true },
    );
  }, [params, setParams, openSettings]);

  return (
    <>
      {paypalReturned ? (
        <Suspense fallback={null}>
          <PaypalReturn />
        </Suspense>
      ) : null}
      <DashboardLayout
        quickActions={
          <QuickActionsPanel
            isTeamMember={isTeamMember(me.data)}
            sellStoreFormUrl={config.data?.links.sellStoreFormUrl}
            onUpgradeFiles={upgradeFiles.open}
          />
        }
        updates={<UpdatesPanel />}
      >
        <KeysBoard
          links={config.data?.links}
          renderActions={(card, key) => <KeyCardActions card={card} licenseKey={key} />}
          renderUpgrade={(_card, key) => <CardUpgradeAction licenseKey={key} />}
          headerActions={
            <>
              {/* Not in the "No Keys Found" state; while the keys load or when they failed, the picker says so. */}
              {keys.isSuccess && keys.data.length === 0 ? null : (
                <UpgradePicker keys={{ data: keys.data, isPending: keys.isPending, isError: keys.isError }} />
              )}
              {/* §6: team members only; customers reach dialog 9 from the user menu. */}
              {isTeamMember(me.data) ? <BuyWithCreditsButton /> : null}
            </>
          }
        />
      </DashboardLayout>
      {upgradeFiles.element}
    </>
  );
}
