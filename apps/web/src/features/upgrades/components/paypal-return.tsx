import { useState } from 'react';
import { Dialog, DialogContent } from '../../../components/ui/dialog';
import { saveUpgradeInfo } from './save-upgrade-info';
import { UpgradeSuccess } from './upgrade-success';
import { PAYPAL_RETURN_MESSAGES, usePaypalReturn, type PaypalUpgrade } from './use-paypal-return';

/**
 * The dashboard's PayPal return handler, loaded only when the URL carries a return (see my-keys-page.tsx). A paid
 * upgrade ends on the card path's success screen, 'License Upgrade Complete!' (§2), in the same Upgrade License
 * dialog, saying 'Payment completed. Your license was upgraded.' (§8).
 */
export default function PaypalReturn() {
  const [upgraded, setUpgraded] = useState<PaypalUpgrade | null>(null);
  usePaypalReturn({ onUpgraded: setUpgraded });
  if (!upgraded) return null;
  const close = () => setUpgraded(null);
  return (
    <Dialog open onOpenChange={(open) => (open ? undefined : close())}>
      <DialogContent title="Upgrade License" size="xl" description={PAYPAL_RETURN_MESSAGES.completed}>
        <UpgradeSuccess
          path={upgraded.path}
          onClose={close}
          onUpgradeThemeFiles={() => saveUpgradeInfo(upgraded.key, upgraded.path)}
        />
      </DialogContent>
    </Dialog>
  );
}
