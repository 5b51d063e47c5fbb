import type { FormEvent, ReactNode } from 'react';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { AuthLayout } from './auth-layout';

interface AuthFormProps {
  title: string;
  subtitle?: string;
  /** Under the card: the way to the other auth pages. */
  footer?: ReactNode;
  /** An information line above the fields (e.g. why the person was sent here). */
  notice?: ReactNode;
  /** The failure to show above the fields, as the server worded it (and, where it helps, a way on). */
  error?: ReactNode;
  /** What replaces the form once it has done its job, or when it cannot be used (a success, an incomplete link). */
  outcome?: ReactNode;
  submitLabel: string;
  pendingLabel: string;
  pending: boolean;
  /** False while a required field is empty or a field is invalid: the submit button stays disabled. */
  canSubmit: boolean;
  onSubmit: () => void;
  /** Between the fields and the submit button. */
  beforeSubmit?: ReactNode;
  children: ReactNode;
}

/**
 * The one skeleton of the sign-in, sign-up, forgot-password and reset-password pages: the card, a notice or the
 * server's error above the fields, the fields, and one full-width submit button that says when it is busy.
 */
export function AuthForm({
  title,
  subtitle,
  footer,
  notice,
  error,
  outcome,
  submitLabel,
  pendingLabel,
  pending,
  canSubmit,
  onSubmit,
  beforeSubmit,
  children,
}: AuthFormProps) {
  function submit(event: FormEvent) {
    event.preventDefault();
    if (pending || !canSubmit) return;
    onSubmit();
  }

  return (
    <AuthLayout title={title} subtitle={subtitle} footer={footer}>
      {outcome ?? (
        <form className="space-y-4" onSubmit={submit} noValidate>
          {error ? <Alert>{error}</Alert> : notice ? <Alert tone="info">{notice}</Alert> : null}
          {children}
          {beforeSubmit}
          <Button type="submit" className="w-full" disabled={pending || !canSubmit}>
            {pending ? pendingLabel : submitLabel}
          </Button>
        </form>
      )}
    </AuthLayout>
  );
}
