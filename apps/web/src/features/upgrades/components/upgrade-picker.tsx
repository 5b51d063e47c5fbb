import { useQueryClient } from '@tanstack/react-query';
import { ArrowUpCircle } from 'lucide-react';
import { lazy, Suspense, useRef, useState } from 'react';
import { toast } from 'sonner';
import type { Key } from '@keyport/shared/contracts/keys';
import type { UpgradePath } from '@keyport/shared/domain/upgrade-paths';
import { Button } from '../../../components/ui/button';
import type { PickerKeys } from './upgrade-picker-dialog';

/** §4: after a purchase in the dashboard picker. */
export const UPGRADE_COMPLETED = 'Upgrade completed';

// Both dialogs load when first opened: the dashboard's initial bundle keeps only this button.
const UpgradePickerDialog = lazy(() => import('./upgrade-picker-dialog'));
const UpgradeDialog = lazy(() => import('./upgrade-dialog'));

/**
 * The dashboard's entry to the paid upgrade picker (§2 dialog 3), beside "Add New Key" at every width (the Quick
 * Actions panel is hidden below xl). After a purchase: 'Upgrade completed', and the dashboard reloads its data.
 */
export function UpgradePicker({ keys }: { keys: PickerKeys }) {
  const [stage, setStage] = useState<{ kind: 'picker' } | { kind: 'license'; key: Key; path: UpgradePath } | null>(
    null,
  );
  const button = useRef<HTMLButtonElement>(null);
  const queryClient = useQueryClient();

  return (
    <>
      {/* Below sm, a row of its own: "Get More Keys", which arrives with the configuration, then moves nothing. */}
      <Button ref={button} variant="secondary" className="max-sm:w-full" onClick={() => setStage({ kind: 'picker' })}>
        <ArrowUpCircle aria-hidden="true" className="size-4" />
        Upgrade a License
      </Button>
      {stage?.kind === 'picker' ? (
        <Suspense fallback={null}>
          <UpgradePickerDialog
            keys={keys}
            onPicked={(key, path) => setStage({ kind: 'license', key, path })}
            onClose={() => setStage(null)}
          />
        </Suspense>
      ) : null}
      {stage?.kind === 'license' ? (
        <Suspense fallback={null}>
          <UpgradeDialog
            licenseKey={stage.key}
            initialPath={stage.path}
            onPurchased={() => {
              toast.success(UPGRADE_COMPLETED);
              void queryClient.invalidateQueries();
            }}
            onClose={() => setStage(null)}
            onCloseAutoFocus={(event) => {
              event.preventDefault();
              button.current?.focus();
            }}
          />
        </Suspense>
      ) : null}
    </>
  );
}
