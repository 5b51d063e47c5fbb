import type { StaffStoreReport } from '@keyport/shared/contracts/credits';
import { ConfirmAction } from '../../components/confirm-action';
import { useApproveReport, useRejectReport } from '../api/review-report';

/** Approve or reject a pending report; the note the dialog asks for is the audit row's reason. */
export function ReportActions({ report }: { report: StaffStoreReport }) {
  const approve = useApproveReport();
  const reject = useRejectReport();
  if (report.status !== 'pending') {
    return (
      <p className="text-sm text-slate-600">
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
        description={`${report.reporter.email} keeps the credit this report earned. Your note is recorded in the audit log.`}
        confirmLabel="Approve"
        onConfirm={(note) => approve.mutateAsync({ params, body: { note } })}
      />
      <ConfirmAction
        triggerLabel={<span aria-label={`Reject report #${report.id}`}>Reject</span>}
        triggerVariant="danger"
        tone="danger"
        title={`Reject report #${report.id}?`}
        description={`The credit this report earned is taken back from ${report.reporter.email} (if it was spent, the account owes it). A third rejection stops them from reporting. Your note is recorded in the audit log.`}
        confirmLabel="Reject"
        onConfirm={(note) => reject.mutateAsync({ params, body: { note } })}
      />
    </div>
  );
}
