import { lazy, Suspense, useCallback, useEffect, useState, type ReactNode } from 'react';
import { SettingsDialogContext, type SettingsTab } from './settings-dialog-context';

const SettingsDialog = lazy(() => import('./settings-dialog'));

/** Holds the settings dialog for the signed-in pages; the dialog's code loads the first time it opens. */
export function SettingsDialogProvider({ children }: { children: ReactNode }) {
  const [tab, setTab] = useState<SettingsTab | null>(null);
  const open = useCallback((next: SettingsTab = 'profile') => setTab(next), []);

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
          <SettingsDialog tab={tab} onTabChange={setTab} onClose={() => setTab(null)} />
        </Suspense>
      ) : null}
    </SettingsDialogContext.Provider>
  );
}
