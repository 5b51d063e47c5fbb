import { lazy, Suspense, useCallback, useEffect, useState, type ReactNode } from 'react';
import { focusedOpener } from '../../../components/ui/dialog';
import { SettingsDialogContext, type SettingsTab } from './settings-dialog-context';

const SettingsDialog = lazy(() => import('./settings-dialog'));

/** Holds the settings dialog for the signed-in pages; the dialog's code loads the first time it opens. */
export function SettingsDialogProvider({ children }: { children: ReactNode }) {
  const [tab, setTab] = useState<SettingsTab | null>(null);
  // Read as the dialog is asked for: from the user menu, that is the menu's button (focus returns there on close).
  const [opener, setOpener] = useState<HTMLElement | null>(null);
  const open = useCallback((next: SettingsTab = 'profile') => {
    setOpener(focusedOpener());
    setTab(next);
  }, []);

  useEffect(() => {
    window.openSettingsDialog = open;
    return () => {
      delete window.openSettingsDialog;
    };
  }, [open]);

  return (
    <SettingsDialogContext.Provider value={open}>
      {children}
      {tab ? (
        <Suspense fallback={null}>
          <SettingsDialog tab={tab} onTabChange={setTab} onClose={() => setTab(null)} opener={opener} />
        </Suspense>
      ) : null}
    </SettingsDialogContext.Provider>
  );
}
