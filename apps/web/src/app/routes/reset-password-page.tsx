import { useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { AUTH_ERROR_CODES } from '@keyport/shared/contracts/auth';
import { Alert } from '../../components/ui/alert';
import { Button } from '../../components/ui/button';
import { Field } from '../../components/ui/field';
import { useResetPassword } from '../../features/account/api/session-mutations';
import { AuthForm } from '../../features/account/components/auth-form';
import { ApiError } from '../../lib/api-client';
import { paths } from '../../lib/paths';

const askForNewLink = (
  <Link className="font-medium underline" to={paths.forgotPassword}>
    Ask for a new link
  </Link>
);

export function ResetPasswordPage() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const reset = useResetPassword();
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const token = params.get('token') ?? '';
  const mismatch = confirm.length > 0 && password !== confirm;
  const linkInvalid = reset.error instanceof ApiError && reset.error.code === AUTH_ERROR_CODES.resetLinkInvalid;

  return (
    <AuthForm
      title="Choose a new password"
      subtitle={token ? 'You will be signed in once it is saved.' : undefined}
      outcome={
        token ? null : (
          <>
            <Alert>This reset link is incomplete. Open the link from the email again, or ask for a new one.</Alert>
            <Button asChild variant="secondary" className="mt-4 w-full">
              <Link to={paths.forgotPassword}>Ask for a new link</Link>
            </Button>
          </>
        )
      }
      error={
        reset.error ? (
          <>
            {reset.error.message}
            {linkInvalid ? <> {askForNewLink}</> : null}
          </>
        ) : null
      }
      submitLabel="Save password and sign in"
      pendingLabel="Saving…"
      pending={reset.isPending}
      canSubmit={password !== '' && confirm !== '' && !mismatch}
      onSubmit={() => reset.mutate({ token, password }, { onSuccess: () => navigate(paths.myKeys, { replace: true }) })}
    >
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
    </AuthForm>
  );
}
