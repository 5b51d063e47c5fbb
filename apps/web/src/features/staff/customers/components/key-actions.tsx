import type { StaffCustomerKey } from '@keyport/shared/contracts/staff-customers';
import { ConfirmAction } from '../../components/confirm-action';
import { useReleaseCustomerKey } from '../api/release-customer-key';
import { useResendKeyEmail } from '../api/resend-key-email';

/** A key's actions on the customer page: re-send its email, release it from the account. */
export function KeyActions({
  customerId,
  email,
  keyRow,
}: {
  customerId: number;
  email: string;
  keyRow: StaffCustomerKey;
}) {
  const release = useReleaseCustomerKey();
  const resend = useResendKeyEmail();
  const params = { id: String(customerId), keyId: String(keyRow.id) };
  return (
    <div className="flex flex-wrap gap-2">
      <ConfirmAction
        triggerLabel="Re-send email"
        title="Re-send the key email"
        description={`${email} gets an email with the license key ${keyRow.api_key}.`}
        confirmLabel="Send email"
        onConfirm={(reason) => resend.mutateAsync({ params, body: { reason } })}
      />
      <ConfirmAction
        triggerLabel="Release"
        triggerVariant="danger"
        tone="danger"
        title="Release this key from the account"
        description={`${keyRow.api_key} leaves ${email}'s account: its store connection and theme token are cleared, and the key can be added to an account again.`}
        confirmLabel="Release key"
        onConfirm={(reason) => release.mutateAsync({ params, body: { reason } })}
      />
    </div>
  );
}
