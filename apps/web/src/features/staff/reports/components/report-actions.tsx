import type { StaffStoreReport } from '@keyport/shared/contracts/credits';
import { ConfirmAction } from '../../components/confirm-action';
import { useApproveReport, useRejectReport } from '../api/review-report';

/** What approving does to the report's credit: a pending one is added at once; one added before ADR 037 stays. */
function approveCreditText(report: StaffStoreReport): string {
  return report.credit.state === 'added'
    ? `${report.reporter.email} keeps the credit this report already added.`
    : `The credit this report holds for ${report.reporter.email} is added to their balance at once and can be spent.`;
}

/** What rejecting does to the report's credit: a pending one is dropped; one added before ADR 037 is taken back. */
function rejectCreditText(report: StaffStoreReport): string {
  return report.credit.state === 'added'
    ? `The credit this report added is taken back from ${report.reporter.email} (if it was spent, the account owes it).`
    : `The credit this report holds for ${report.reporter.email} is dropped; it was never spendable.`;
}

/** Approve or reject a pending report; the note the dialog asks for is the audit row's reason. */
export function ReportActions({ report }: { report: StaffStoreReport }) {
  const approve = useApproveReport();
  const reject = useRejectReport();
  if (report.status !== 'pending') {
    return (
      <p className="text-sm text-slate-600">
        {report.reviewed_automatically ? 'Automatically, on the license check’s evidence' : null}
        {report.reviewed_by ? `By ${report.reviewed_by.email}` : null}
        {report.review_note ? `: “${report.review_note}”` : null}
      </p>
    );
  }
  const params = { id: String(report.id) };
  return (
    <div className="flex flex-wrap gap-2">
      <ConfirmAction
        triggerLabel={<span aria-label={`Approve report #${report.id}`}>Approve</span>}
        title={`Approve report #${report.id}?`}
        description={`${approveCreditText(report)} Your note is recorded in the audit log and shown to them in their credit history.`}
        confirmLabel="Approve"
        onConfirm={(note) => approve.mutateAsync({ params, body: { note } })}
      />
      <ConfirmAction
        triggerLabel={<span aria-label={`Reject report #${report.id}`}>Reject</span>}
        triggerVariant="danger"
        tone="danger"
        title={`Reject report #${report.id}?`}
        description={`${rejectCreditText(report)} A third rejection stops them from reporting. Your note is recorded in the audit log and shown to them in their credit history.`}
        confirmLabel="Reject"
        onConfirm={(note) => reject.mutateAsync({ params, body: { note } })}
      />
    </div>
  );
}
