import { useEffect, useRef } from 'react';
import { toast } from 'sonner';
import type { Key } from '@keyport/shared/contracts/keys';
import { ThemeSourceChooserDialog } from './theme-source-chooser-dialog';
import { useThemeFileUpdateRouting } from './use-theme-file-update-routing';

/**
 * A card's "Upgrade Theme" once chosen (loaded on demand): runs the §4 routing at once; goes to the page, opens the
 * source chooser, or says why not (a toast), then calls `onDone`.
 */
export default function ThemeFileUpdateLauncher({ card, onDone }: { card: Key; onDone: () => void }) {
  const { state, start } = useThemeFileUpdateRouting(card);
  const started = useRef(false);
  useEffect(() => {
    if (started.current) return;
    started.current = true;
    void start();
  }, [start]);
  useEffect(() => {
    if (state.status === 'error') {
      toast.error(state.message);
      onDone();
    }
  }, [state, onDone]);

  return state.status === 'chooser' ? (
    <ThemeSourceChooserDialog card={card} keys={state.keys} onClose={onDone} />
  ) : null;
}
