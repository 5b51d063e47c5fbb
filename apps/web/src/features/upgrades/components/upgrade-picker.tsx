import { ArrowUpCircle } from 'lucide-react';
import { lazy, Suspense, useRef, useState } from 'react';
import { Button } from '../../../components/ui/button';
import type { PickerKeys } from './upgrade-picker-dialog';

// The picker and the Upgrade License dialog load when first opened: the dashboard's initial bundle keeps only this
// button.
const UpgradePickerFlow = lazy(() => import('./upgrade-picker-flow'));

/**
 * The dashboard's entry to the paid upgrade picker (§2 dialog 3), after "Add New Key" at every width (the Quick
 * Actions panel is hidden below xl).
 */
export function UpgradePicker({ keys }: { keys: PickerKeys }) {
  const [open, setOpen] = useState(false);
  const button = useRef<HTMLButtonElement>(null);

  return (
    <>
      {/* Below sm, a row of its own: "Get More Keys", which arrives with the configuration, then moves nothing. */}
      <Button ref={button} variant="secondary" className="max-sm:w-full" onClick={() => setOpen(true)}>
        <ArrowUpCircle aria-hidden="true" className="size-4" />
        Upgrade a License
      </Button>
      {open ? (
        <Suspense fallback={null}>
          <UpgradePickerFlow keys={keys} onClose={() => setOpen(false)} returnFocus={() => button.current?.focus()} />
        </Suspense>
      ) : null}
    </>
  );
}
