import { useState, type FormEvent } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { Alert } from '../../components/ui/alert';
import { Button } from '../../components/ui/button';
import { Field } from '../../components/ui/field';
import { useResetPassword } from '../../features/account/api/session-mutations';
import { AuthLayout } from '../../features/account/components/auth-layout';
import { paths } from '../../lib/paths';

export function ResetPasswordPage() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const reset = useResetPassword();
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const token = params.get('token') ?? '';
  const mismatch = confirm.length > 0 && password !== confirm;

  function submit(event: FormEvent) {
    event.preventDefault();
    if (mismatch) return;
    reset.mutate({ token, password }, { onSuccess: () => navigate(paths.myKeys, { replace: true }) });
  }

  if (!token) {
    return (
      <AuthLayout title="Choose a new password">
        <Alert>This reset link is incomplete. Open the link from the email again, or ask for a new one.</Alert>
        <Button asChild variant="secondary" className="mt-4 w-full">
          <Link to={paths.forgotPassword}>Ask for a new link</Link>
        </Button>
      </AuthLayout>
    );
  }

  return (
    <AuthLayout title="Choose a new password" subtitle="You will be signed in once it is saved.">
      <form className="space-y-4" onSubmit={submit} noValidate>
        {reset.error ? <Alert>{reset.error.message}</Alert> : null}
        <Field
          label="New password"
          type="password"
          autoComplete="new-password"
          hint="At least 8 characters."
          value={password}
          onChange={(e) => setPassword(e.target.value)}
        />
        <Field
          label="Repeat new password"
          type="password"
          autoComplete="new-password"
          error={mismatch ? 'The passwords do not match' : null}
          value={confirm}
          onChange={(e) => setConfirm(e.target.value)}
        />
        <Button type="submit" className="w-full" disabled={reset.isPending || !password || mismatch || !confirm}>
          {reset.isPending ? 'Saving…' : 'Save password and sign in'}
        </Button>
      </form>
    </AuthLayout>
  );
}
