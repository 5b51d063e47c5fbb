import { useState, type FormEvent } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { Alert } from '../../components/ui/alert';
import { Button } from '../../components/ui/button';
import { Field } from '../../components/ui/field';
import { useSignup } from '../../features/account/api/session-mutations';
import { AuthLayout } from '../../features/account/components/auth-layout';
import { safeNextPath } from '../../features/account/components/safe-next';
import { paths } from '../../lib/paths';

export function SignupPage() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const signup = useSignup();
  const [form, setForm] = useState({ name: '', email: '', password: '' });
  const update = (field: keyof typeof form) => (e: { target: { value: string } }) =>
    setForm({ ...form, [field]: e.target.value });

  function submit(event: FormEvent) {
    event.preventDefault();
    signup.mutate(form, { onSuccess: () => navigate(safeNextPath(params.get('next')), { replace: true }) });
  }

  return (
    <AuthLayout
      title="Create your account"
      subtitle="Add the license keys you bought and connect them to your stores."
      footer={
        <>
          Already have an account?{' '}
          <Link className="font-medium text-brand-700 hover:underline" to={paths.login}>
            Sign in
          </Link>
        </>
      }
    >
      <form className="space-y-4" onSubmit={submit} noValidate>
        {signup.error ? <Alert>{signup.error.message}</Alert> : null}
        <Field label="Name" name="name" autoComplete="name" required value={form.name} onChange={update('name')} />
        <Field
          label="Email"
          type="email"
          name="email"
          autoComplete="email"
          inputMode="email"
          required
          value={form.email}
          onChange={update('email')}
        />
        <Field
          label="Password"
          type="password"
          name="password"
          autoComplete="new-password"
          required
          minLength={8}
          hint="At least 8 characters."
          value={form.password}
          onChange={update('password')}
        />
        <Button
          type="submit"
          className="w-full"
          disabled={signup.isPending || !form.name || !form.email || !form.password}
        >
          {signup.isPending ? 'Creating account…' : 'Create account'}
        </Button>
      </form>
    </AuthLayout>
  );
}
