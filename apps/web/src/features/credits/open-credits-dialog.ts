/** The credits feature's own dialogs that its menu items and buttons open (dialog 10 has a §4 event instead). */
export type CreditsFeatureDialog = 'redeem' | 'history';

type Listener = (dialog: CreditsFeatureDialog) => void;
const listeners = new Set<Listener>();

/**
 * Opens dialog 9 (Buy License with Credits) or the credit history from the credits feature's own entries (the user
 * menu's items, the team member's Buy With Credits button). Inside the feature only: other features open dialog 10
 * through the `openReportDialog` event of lib/credit-events.ts.
 */
export function openCreditsFeatureDialog(dialog: CreditsFeatureDialog): void {
  listeners.forEach((listener) => listener(dialog));
}

export const openRedeemDialog = () => openCreditsFeatureDialog('redeem');
export const openHistoryDialog = () => openCreditsFeatureDialog('history');

/** Listens for the requests above; returns the unsubscribe. */
export function onOpenCreditsFeatureDialog(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
