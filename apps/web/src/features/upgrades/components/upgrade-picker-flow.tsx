import { useQueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useState } from 'react';
import { toast } from 'sonner';
import type { Key } from '@keyport/shared/contracts/keys';
import type { UpgradePath } from '@keyport/shared/domain/upgrade-paths';
import UpgradePickerDialog, { type PickerKeys } from './upgrade-picker-dialog';

const UpgradeDialog = lazy(() => import('./upgrade-dialog'));

/** §4: after a purchase in the dashboard picker. */
export const UPGRADE_COMPLETED = 'Upgrade completed';

interface UpgradePickerFlowProps {
  keys: PickerKeys;
  onClose: () => void;
  /** Focus goes back to the picker's entry when the flow ends. */
  returnFocus: () => void;
}

/**
 * The picker, then the Upgrade License dialog for the key it found, with the target selected. After a payment there:
 * 'Upgrade completed', and every query of the dashboard is fetched again.
 */
export default function UpgradePickerFlow({ keys, onClose, returnFocus }: UpgradePickerFlowProps) {
  const [picked, setPicked] = useState<{ key: Key; path: UpgradePath } | null>(null);
  const queryClient = useQueryClient();

  if (!picked) {
    return <UpgradePickerDialog keys={keys} onPicked={(key, path) => setPicked({ key, path })} onClose={onClose} />;
  }
  return (
    <Suspense fallback={null}>
      <UpgradeDialog
        licenseKey={picked.key}
        initialPath={picked.path}
        onPurchased={() => {
          toast.success(UPGRADE_COMPLETED);
          void queryClient.invalidateQueries();
        }}
        onClose={onClose}
        onCloseAutoFocus={(event) => {
          event.preventDefault();
          returnFocus();
        }}
      />
    </Suspense>
  );
}
