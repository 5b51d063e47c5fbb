import { useState } from 'react';
import { Dialog, DialogContent } from '../../../components/ui/dialog';
import { AddKeyForm } from './add-key-form';

/** The dialog cannot be closed while the key is being added; the input is cleared on close (it unmounts). */
export function AddKeyDialog({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  const [busy, setBusy] = useState(false);
  return (
    <Dialog open={open} onOpenChange={(next) => (busy ? undefined : onOpenChange(next))}>
      <DialogContent
        title="Add Existing License Key"
        description="Enter a license key you bought elsewhere to manage it here."
        busy={busy}
      >
        <AddKeyForm onBusyChange={setBusy} onAdded={() => onOpenChange(false)} onCancel={() => onOpenChange(false)} />
      </DialogContent>
    </Dialog>
  );
}
