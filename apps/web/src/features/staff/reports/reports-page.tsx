import type { StaffStoreReport } from '@keyport/shared/contracts/credits';
import { Badge } from '../../../components/ui/badge';
import { DataTable, type Column } from '../components/data-table';
import { StaffPageHeader } from '../components/staff-layout';
import { TableFilters } from '../components/table-filters';
import { useTableParams } from '../components/use-table-params';
import { useStaffReports } from './api/get-staff-reports';
import { ReportActions } from './components/report-actions';
import { ReportDomains } from './components/report-domains';

const STATUSES = ['pending', 'approved', 'rejected'] as const;
type Status = (typeof STATUSES)[number];
const isStatus = (value: string | undefined): value is Status => STATUSES.includes(value as Status);

const STATUS_STYLE: Record<Status, string> = {
  pending: 'bg-amber-100 text-amber-900',
  approved: 'bg-emerald-100 text-emerald-800',
  rejected: 'bg-red-100 text-red-800',
};

/** ADR 037: what became of the report's credit, in words. */
export function reportCreditText(credit: StaffStoreReport['credit']): string {
  const credits = `${credit.amount} credit${credit.amount === 1 ? '' : 's'}`;
  switch (credit.state) {
    case 'pending':
      return `${credits} pending review`;
    case 'added':
      return `${credits} added to the balance`;
    case 'dropped':
      return `${credits} dropped (never spendable)`;
    case 'taken_back':
      return `${credits} taken back`;
  }
}

const CREDIT_STYLE: Record<StaffStoreReport['credit']['state'], string> = {
  pending: 'text-amber-800',
  added: 'text-emerald-700',
  dropped: 'text-slate-600',
  taken_back: 'text-red-700',
};

const columns: Column<StaffStoreReport>[] = [
  {
    key: 'report',
    header: 'Report',
    cell: (report) => (
      <div className="space-y-1">
        <p className="font-medium text-slate-900">#{report.id}</p>
        <p className="text-slate-600">{report.created_at.slice(0, 10)}</p>
        <Badge className={STATUS_STYLE[report.status]}>{report.status}</Badge>
        <p className={`font-medium ${CREDIT_STYLE[report.credit.state]}`} data-testid="report-credit">
          {reportCreditText(report.credit)}
        </p>
      </div>
    ),
  },
  {
    key: 'reporter',
    header: 'Reporter',
    cell: ({ reporter }) => (
      <div className="space-y-1">
        <p className="font-medium break-all text-slate-900">{reporter.email}</p>
        <p className="text-slate-600">
          History: {reporter.reports.pending} pending, {reporter.reports.approved} approved, {reporter.reports.rejected}{' '}
          rejected
        </p>
      </div>
    ),
  },
  { key: 'domains', header: 'Domains', cell: (report) => <ReportDomains report={report} /> },
  { key: 'review', header: 'Review', cell: (report) => <ReportActions report={report} /> },
];

/** /staff/reports (issue 12): the store report queue, pending first, filtered by status through the URL. */
export function ReportsPage() {
  const params = useTableParams({ filters: ['status'] });
  const status = isStatus(params.filters.status) ? params.filters.status : undefined;
  const reports = useStaffReports({ status, cursor: params.cursor || undefined });
  return (
    <div className="space-y-6">
      <StaffPageHeader
        title="Store reports"
        description="Reports of stores running unlicensed copies. Each holds 1 credit for its reporter, pending until you decide: approving adds it to their balance at once, rejecting drops it. Reports whose five stores the license check saw running an unlicensed copy are approved automatically."
      />
      <TableFilters
        params={params}
        fields={[
          {
            name: 'status',
            label: 'Status',
            options: [{ value: '', label: 'All (pending first)' }, ...STATUSES.map((s) => ({ value: s, label: s }))],
          },
        ]}
      />
      <DataTable
        caption="Store reports"
        columns={columns}
        rowKey={(report) => report.id}
        rows={reports.data?.reports}
        isPending={reports.isPending}
        error={reports.error}
        onRetry={() => void reports.refetch()}
        nextCursor={reports.data?.next_cursor}
        params={params}
        emptyText="No reports."
      />
    </div>
  );
}
