import { useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { Field } from '../../components/ui/field';
import { useLogin } from '../../features/account/api/session-mutations';
import { AuthForm } from '../../features/account/components/auth-form';
import { landingPath, safeNextPath } from '../../features/account/components/safe-next';
import { paths } from '../../lib/paths';

export function LoginPage() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const login = useLogin();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const next = safeNextPath(params.get('next'));

  return (
    <AuthForm
      title="Sign in"
      subtitle="Manage your license keys, stores and theme downloads."
      footer={
        <>
          New here?{' '}
          <Link
            className="font-medium text-brand-700 hover:underline"
            to={`${paths.signup}${params.get('next') ? `?next=${encodeURIComponent(next)}` : ''}`}
          >
            Create an account
          </Link>
        </>
      }
      notice={params.get('reason') === 'expired' ? 'Your session has ended. Please sign in again.' : null}
      error={login.error?.message}
      submitLabel="Sign in"
      pendingLabel="Signing in…"
      pending={login.isPending}
      canSubmit={email !== '' && password !== ''}
      onSubmit={() =>
        login.mutate(
          { email, password },
          { onSuccess: (session) => navigate(landingPath(params.get('next'), session.user), { replace: true }) },
        )
      }
      beforeSubmit={
        <div className="flex justify-end">
          <Link className="text-sm text-brand-700 hover:underline" to={paths.forgotPassword}>
            Forgot password?
          </Link>
        </div>
      }
    >
      <Field
        label="Email"
        type="email"
        name="email"
        autoComplete="email"
        inputMode="email"
        required
        value={email}
        onChange={(e) => setEmail(e.target.value)}
      />
      <Field
        label="Password"
        type="password"
        name="password"
        autoComplete="current-password"
        required
        value={password}
        onChange={(e) => setPassword(e.target.value)}
      />
    </AuthForm>
  );
}
