import { useState, type FormEvent } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { Alert } from '../../components/ui/alert';
import { Button } from '../../components/ui/button';
import { Field } from '../../components/ui/field';
import { useLogin } from '../../features/account/api/session-mutations';
import { AuthLayout } from '../../features/account/components/auth-layout';
import { safeNextPath } from '../../features/account/components/safe-next';
import { paths } from '../../lib/paths';

export function LoginPage() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const login = useLogin();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const next = safeNextPath(params.get('next'));

  function submit(event: FormEvent) {
    event.preventDefault();
    login.mutate({ email, password }, { onSuccess: () => navigate(next, { replace: true }) });
  }

  return (
    <AuthLayout
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
    >
      <form className="space-y-4" onSubmit={submit} noValidate>
        {params.get('reason') === 'expired' && !login.error ? (
          <Alert tone="info">Your session has ended. Please sign in again.</Alert>
        ) : null}
        {login.error ? <Alert>{login.error.message}</Alert> : null}
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
        <div className="flex justify-end">
          <Link className="text-sm text-brand-700 hover:underline" to={paths.forgotPassword}>
            Forgot password?
          </Link>
        </div>
        <Button type="submit" className="w-full" disabled={login.isPending || !email || !password}>
          {login.isPending ? 'Signing in…' : 'Sign in'}
        </Button>
      </form>
    </AuthLayout>
  );
}
