import { KeyRound } from 'lucide-react';
import { AddKeyForm } from '../../features/keys/components/add-key-form';

/** /customer/onboarding: add a first key. */
export function OnboardingPage() {
  return (
    <div className="mx-auto max-w-md px-4 py-10">
      <div className="rounded-2xl border border-slate-200 bg-white p-6 shadow-sm">
        <KeyRound aria-hidden="true" className="size-8 text-brand-600" />
        <h1 className="mt-3 text-xl font-semibold text-slate-900">Add Existing License Key</h1>
        <p className="mt-1 mb-5 text-sm text-slate-600">
          Enter the license key from your purchase email. Once added, you can connect it to your store and download the
          theme.
        </p>
        <AddKeyForm />
      </div>
    </div>
  );
}
