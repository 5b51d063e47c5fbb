type Listener = () => void;
const listeners = new Set<Listener>();

/**
 * Opens dialog 9 (Buy License with Credits) from the credits feature's own entries (the user menu's item, the team
 * member's Buy With Credits button). Inside the feature only: other features open dialog 10 through the
 * `openReportDialog` event of lib/credit-events.ts.
 */
export function openRedeemDialog(): void {
  listeners.forEach((listener) => listener());
}

/** Listens for `openRedeemDialog`; returns the unsubscribe. */
export function onOpenRedeemDialog(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
