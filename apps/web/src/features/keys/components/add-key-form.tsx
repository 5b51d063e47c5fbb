import { useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { toast } from 'sonner';
import { ADD_KEY_EMPTY_MESSAGE } from '@keyport/shared/contracts/keys';
import { NAVIGATE_AFTER_ADD_KEY_MS } from '@keyport/shared/domain/constants';
import { Button } from '../../../components/ui/button';
import { Field } from '../../../components/ui/field';
import { serverMessage } from '../../../lib/api-client';
import { useAddKey } from '../api/add-key';
import { paths } from '../../../lib/paths';

export const ADD_KEY_FALLBACK_ERROR = 'An unexpected error occurred.';

interface AddKeyFormProps {
  onBusyChange?: (busy: boolean) => void;
  onAdded?: () => void;
  onCancel?: () => void;
}

/** §2 dialog 8 "Add Existing License Key": the form, used in the dialog and on /customer/onboarding. */
export function AddKeyForm({ onBusyChange, onAdded, onCancel }: AddKeyFormProps) {
  const navigate = useNavigate();
  const addKey = useAddKey();
  const [key, setKey] = useState('');
  const [error, setError] = useState<string | null>(null);
  const busy = addKey.isPending;

  function submit(event: FormEvent) {
    event.preventDefault();
    if (busy) return;
    const trimmed = key.trim();
    if (!trimmed) {
      setError(ADD_KEY_EMPTY_MESSAGE);
      return;
    }
    setError(null);
    onBusyChange?.(true);
    addKey.mutate(trimmed, {
      onSuccess: ({ key: added }) => {
        toast.success('License key added');
        onAdded?.();
        // §7: to the dashboard after 100 ms, which shows the new key on its page, highlighted (ADR 042).
        setTimeout(() => navigate(`${paths.myKeys}?added=${added.id}`), NAVIGATE_AFTER_ADD_KEY_MS);
      },
      onError: (failure) => setError(serverMessage(failure) ?? ADD_KEY_FALLBACK_ERROR),
      onSettled: () => onBusyChange?.(false),
    });
  }

  return (
    <form onSubmit={submit} noValidate className="space-y-4">
      <Field
        label="License key"
        name="license-key"
        placeholder="XXXXX-XXXXX-XXXXX-XXXXX-XXXXX"
        autoComplete="off"
        spellCheck={false}
        className="font-mono"
        value={key}
        error={error}
        disabled={busy}
        onChange={(e) => {
          setKey(e.target.value);
          setError(null);
        }}
      />
      <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
        {onCancel ? (
          <Button variant="secondary" onClick={onCancel} disabled={busy}>
            Cancel
          </Button>
        ) : null}
        <Button type="submit" disabled={busy || key === ''}>
          {busy ? 'Adding…' : 'Add Key'}
        </Button>
      </div>
    </form>
  );
}
