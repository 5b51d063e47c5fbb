import { useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { Field } from '../../components/ui/field';
import { useSignup } from '../../features/account/api/session-mutations';
import { AuthForm } from '../../features/account/components/auth-form';
import { safeNextPath } from '../../features/account/components/safe-next';
import { paths } from '../../lib/paths';

export function SignupPage() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const signup = useSignup();
  const [form, setForm] = useState({ name: '', email: '', password: '' });
  const update = (field: keyof typeof form) => (e: { target: { value: string } }) =>
    setForm({ ...form, [field]: e.target.value });

  return (
    <AuthForm
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
      error={signup.error?.message}
      submitLabel="Create account"
      pendingLabel="Creating account…"
      pending={signup.isPending}
      canSubmit={form.name !== '' && form.email !== '' && form.password !== ''}
      onSubmit={() =>
        signup.mutate(form, { onSuccess: () => navigate(safeNextPath(params.get('next')), { replace: true }) })
      }
    >
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
    </AuthForm>
  );
}
