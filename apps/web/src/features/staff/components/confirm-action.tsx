import { StaffReasonSchema } from '@keyport/shared/contracts/staff';
import { useId, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { Dialog, DialogContent } from '../../../components/ui/dialog';
import { Textarea } from '../../../components/ui/textarea';
import { serverMessage } from '../../../lib/api-client';

export interface ConfirmActionProps {
  /** The button that opens the dialog (its text says the action). */
  triggerLabel: ReactNode;
  triggerVariant?: 'primary' | 'secondary' | 'danger' | 'ghost';
  triggerSize?: 'sm' | 'md';
  /** Disables the trigger (e.g. the action does not apply to this row). */
  disabled?: boolean;
  title: string;
  /** What will happen, in plain words (shown under the title and read with it). */
  description: ReactNode;
  confirmLabel: string;
  tone?: 'primary' | 'danger';
  /** Extra fields of the action (a count, a tier…), above the reason. */
  children?: ReactNode;
  /**
   * Checks those fields (e.g. a react-hook-form's `trigger`) when the reason is checked, showing their own errors:
   * false keeps the dialog open and calls nothing.
   */
  checkFields?: () => Promise<boolean>;
  /**
   * Does the action with the staff member's reason (already checked: trimmed, 3–500 characters). Resolves when done
   * (the dialog closes) or rejects with the server's error (shown in the dialog, which stays open).
   */
  onConfirm: (reason: string) => Promise<unknown>;
}

/**
 * A staff action that asks first (issue 12): says what will happen, requires a reason (StaffReasonSchema, the rule the
 * server applies), and cannot be submitted twice: the confirm button is disabled from the first click until the server
 * answers, and the dialog cannot be dismissed meanwhile. The server's error is shown as it is.
 */
export function ConfirmAction({
  triggerLabel,
  triggerVariant = 'secondary',
  triggerSize = 'sm',
  disabled,
  title,
  description,
  confirmLabel,
  tone = 'primary',
  children,
  checkFields,
  onConfirm,
}: ConfirmActionProps) {
  const [open, setOpen] = useState(false);
  const [reason, setReason] = useState('');
  const [reasonError, setReasonError] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  // A second click can come before React re-renders the disabled button: the ref stops it synchronously.
  const inFlight = useRef(false);
  const reasonId = useId();

  const reset = () => {
    setReason('');
    setReasonError(null);
    setFailure(null);
  };

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (inFlight.current) return;
    inFlight.current = true;
    try {
      const parsed = StaffReasonSchema.safeParse(reason);
      setReasonError(parsed.success ? null : (parsed.error.issues[0]?.message ?? 'Give a reason'));
      // The action's own fields are checked at the same time: every error shows at once.
      const fieldsValid = checkFields ? await checkFields() : true;
      if (!parsed.success || !fieldsValid) return;
      setFailure(null);
      setPending(true);
      await onConfirm(parsed.data);
      setOpen(false);
      reset();
    } catch (error) {
      setFailure(serverMessage(error) ?? (error instanceof Error ? error.message : 'Something went wrong.'));
    } finally {
      inFlight.current = false;
      setPending(false);
    }
  };

  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        if (pending) return;
        setOpen(next);
        if (!next) reset();
      }}
    >
      <Button variant={triggerVariant} size={triggerSize} disabled={disabled} onClick={() => setOpen(true)}>
        {triggerLabel}
      </Button>
      <DialogContent title={title} description={description} busy={pending}>
        <form onSubmit={submit} className="space-y-4" noValidate>
          {children}
          <div className="space-y-1.5">
            <label htmlFor={reasonId} className="block text-sm font-medium text-slate-700">
              Reason
            </label>
            <Textarea
              id={reasonId}
              name="reason"
              value={reason}
              onChange={(event) => setReason(event.target.value)}
              required
              maxLength={500}
              aria-invalid={reasonError ? true : undefined}
              aria-describedby={`${reasonId}-hint${reasonError ? ` ${reasonId}-error` : ''}`}
              readOnly={pending}
            />
            <p id={`${reasonId}-hint`} className="text-xs text-slate-500">
              Recorded in the audit log with your name.
            </p>
            {reasonError ? (
              <p id={`${reasonId}-error`} role="alert" className="text-sm text-red-600">
                {reasonError}
              </p>
            ) : null}
          </div>
          {failure ? <Alert>{failure}</Alert> : null}
          <div className="flex flex-wrap justify-end gap-2">
            <Button
              variant="secondary"
              disabled={pending}
              onClick={() => {
                setOpen(false);
                reset();
              }}
            >
              Cancel
            </Button>
            <Button type="submit" variant={tone === 'danger' ? 'danger' : 'primary'} disabled={pending}>
              {pending ? 'Working…' : confirmLabel}
            </Button>
          </div>
        </form>
      </DialogContent>
    </Dialog>
  );
}
