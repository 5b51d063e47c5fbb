import { toast } from 'sonner';
import { Button } from '../../../components/ui/button';
import { Dialog, DialogContent } from '../../../components/ui/dialog';
import { useDisconnectKey } from '../api/disconnect-key';

interface DisconnectDialogProps {
  apiKey: string | null;
  storeName: string;
  onOpenChange: (open: boolean) => void;
  onDisconnected?: () => void;
  /** The control that asked for the dialog (read with `focusedOpener()` as it was chosen): focus returns there. */
  opener?: HTMLElement | null;
  /** Where focus goes once the key is disconnected and its card, with the opener, has left the page. */
  fallbackFocus?: () => HTMLElement | null | undefined;
}

/** Confirms, then disconnects with the §8 texts: 'Disconnecting app...', then success or failure. */
export function DisconnectDialog({
  apiKey,
  storeName,
  onOpenChange,
  onDisconnected,
  opener,
  fallbackFocus,
}: DisconnectDialogProps) {
  const disconnect = useDisconnectKey();

  function confirm() {
    if (!apiKey) return;
    const toastId = toast.loading('Disconnecting app...');
    disconnect.mutate(apiKey, {
      onSuccess: () => {
        toast.success('Store disconnected successfully', { id: toastId });
        onOpenChange(false);
        onDisconnected?.();
      },
      onError: () => toast.error('Failed to disconnect app', { id: toastId }),
    });
  }

  return (
    <Dialog open={apiKey !== null} onOpenChange={(next) => (disconnect.isPending ? undefined : onOpenChange(next))}>
      <DialogContent
        title="Disconnect this key?"
        busy={disconnect.isPending}
        opener={opener}
        fallbackFocus={fallbackFocus}
      >
        <p className="text-sm text-slate-700">
          <strong>{storeName}</strong> will be disconnected and the key removed from your account. The theme on that
          store stops receiving a valid license. You can add the key again later with Add New Key.
        </p>
        <p className="mt-2 font-mono text-sm break-all text-slate-600">{apiKey}</p>
        <div className="mt-5 flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
          <Button variant="secondary" onClick={() => onOpenChange(false)} disabled={disconnect.isPending}>
            Cancel
          </Button>
          <Button variant="danger" onClick={confirm} disabled={disconnect.isPending}>
            {disconnect.isPending ? 'Disconnecting…' : 'Disconnect'}
          </Button>
        </div>
      </DialogContent>
    </Dialog>
  );
}
