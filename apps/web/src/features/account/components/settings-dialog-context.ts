import { createContext, useContext } from 'react';

export type SettingsTab = 'profile' | 'password' | 'invoices';

export const SettingsDialogContext = createContext<((tab?: SettingsTab) => void) | null>(null);

/** Opens the settings dialog, on a tab. */
export function useOpenSettings(): (tab?: SettingsTab) => void {
  const open = useContext(SettingsDialogContext);
  if (!open) throw new Error('useOpenSettings must be used inside <SettingsDialogProvider>');
  return open;
}

declare global {
  interface Window {
    /** §4: a window hook that opens the settings dialog. */
    openSettingsDialog?: (tab?: SettingsTab) => void;
  }
}
