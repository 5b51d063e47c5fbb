import { useState } from 'react';
import { Link } from 'react-router';
import { Alert } from '../../components/ui/alert';
import { Field } from '../../components/ui/field';
import { useForgotPassword } from '../../features/account/api/session-mutations';
import { AuthForm } from '../../features/account/components/auth-form';
import { paths } from '../../lib/paths';

export function ForgotPasswordPage() {
  const forgot = useForgotPassword();
  const [email, setEmail] = useState('');

  return (
    <AuthForm
      title="Reset your password"
      subtitle="Enter your account email and we will send you a link to choose a new password."
      footer={
        <Link className="font-medium text-brand-700 hover:underline" to={paths.login}>
          Back to sign in
        </Link>
      }
      outcome={forgot.data ? <Alert tone="success">{forgot.data.message}</Alert> : null}
      error={forgot.error?.message}
      submitLabel="Send reset link"
      pendingLabel="Sending…"
      pending={forgot.isPending}
      canSubmit={email !== ''}
      onSubmit={() => forgot.mutate({ email })}
    >
      <Field
        label="Email"
        type="email"
        name="email"
        autoComplete="email"
        required
        value={email}
        onChange={(e) => setEmail(e.target.value)}
      />
    </AuthForm>
  );
}
