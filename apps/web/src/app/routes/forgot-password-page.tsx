import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { Alert } from '../../components/ui/alert';
import { Button } from '../../components/ui/button';
import { Field } from '../../components/ui/field';
import { useForgotPassword } from '../../features/account/api/session-mutations';
import { AuthLayout } from '../../features/account/components/auth-layout';
import { paths } from '../../lib/paths';

export function ForgotPasswordPage() {
  const forgot = useForgotPassword();
  const [email, setEmail] = useState('');

  function submit(event: FormEvent) {
    event.preventDefault();
    forgot.mutate({ email });
  }

  return (
    <AuthLayout
      title="Reset your password"
      subtitle="Enter your account email and we will send you a link to choose a new password."
      footer={
        <Link className="font-medium text-brand-700 hover:underline" to={paths.login}>
          Back to sign in
        </Link>
      }
    >
      {forgot.data ? (
        <Alert tone="success">{forgot.data.message}</Alert>
      ) : (
        <form className="space-y-4" onSubmit={submit} noValidate>
          {forgot.error ? <Alert>{forgot.error.message}</Alert> : null}
          <Field
            label="Email"
            type="email"
            name="email"
            autoComplete="email"
            required
            value={email}
            onChange={(e) => setEmail(e.target.value)}
          />
          <Button type="submit" className="w-full" disabled={forgot.isPending || !email}>
            {forgot.isPending ? 'Sending…' : 'Send reset link'}
          </Button>
        </form>
      )}
    </AuthLayout>
  );
}
