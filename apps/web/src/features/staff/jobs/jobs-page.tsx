import type { StaffJob, StaffJobFilter } from '@keyport/shared/contracts/staff-jobs';
import { SegmentedControl } from '../../../components/ui/segmented-control';
import { ConfirmAction } from '../components/confirm-action';
import { DataTable, type Column } from '../components/data-table';
import { StaffPageHeader } from '../components/staff-layout';
import { useTableParams } from '../components/use-table-params';
import { useJobs } from './api/list-jobs';
import { useRetryJob } from './api/retry-job';

const VIEWS = ['Given up', 'Retrying'] as const;
type View = (typeof VIEWS)[number];
const VIEW_OF: Record<StaffJobFilter, View> = { dead: 'Given up', retrying: 'Retrying' };

const when = new Intl.DateTimeFormat('en', { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' });
const at = (iso: string) => <time dateTime={iso}>{when.format(new Date(iso))}</time>;

/** "3 of 12": the attempts so far and the kind's limit (unknown for a kind this portal does not run). */
export const attemptsText = (job: Pick<StaffJob, 'attempts' | 'max_attempts'>) =>
  job.max_attempts === null ? String(job.attempts) : `${job.attempts} of ${job.max_attempts}`;

function RetryAction({ job }: { job: StaffJob }) {
  const retry = useRetryJob();
  return (
    <ConfirmAction
      triggerLabel="Retry"
      title={`Retry job ${job.id}?`}
      description={`${job.summary} runs again from its first attempt${
        job.max_attempts === null ? '' : `, with ${job.max_attempts} attempts`
      }. The audit log keeps your reason.`}
      confirmLabel="Retry"
      onConfirm={(reason) => retry.mutateAsync({ params: { id: String(job.id) }, body: { reason } })}
    />
  );
}

const columns = (view: View): Column<StaffJob>[] => [
  {
    key: 'job',
    header: 'Job',
    cell: (job) => (
      <>
        <div className="font-medium text-slate-900">#{job.id}</div>
        <div className="font-mono text-xs whitespace-nowrap text-slate-500">{job.kind}</div>
      </>
    ),
  },
  {
    key: 'summary',
    header: 'What',
    className: 'min-w-48',
    cell: (job) => <span className="break-words">{job.summary}</span>,
  },
  { key: 'attempts', header: 'Attempts', className: 'tabular-nums whitespace-nowrap', cell: attemptsText },
  {
    key: 'error',
    header: 'Last error',
    className: 'min-w-56',
    cell: (job) => <span className="text-sm break-words text-red-700">{job.last_error ?? '—'}</span>,
  },
  view === 'Given up'
    ? {
        key: 'when',
        header: 'Given up (UTC)',
        className: 'whitespace-nowrap',
        cell: (job) => (job.finished_at ? at(job.finished_at) : '—'),
      }
    : { key: 'when', header: 'Next attempt (UTC)', className: 'whitespace-nowrap', cell: (job) => at(job.run_at) },
  {
    key: 'actions',
    header: 'Actions',
    cell: (job) => (job.status === 'dead' ? <RetryAction job={job} /> : null),
  },
];

/**
 * `/staff/jobs` (issue 19): the job engine's problems. Emails, analytics and payment events are retried with backoff
 * by themselves; a job given up after its last attempt waits here until staff retry it. Jobs are shown by their
 * summary, never their payload (an email's link stays out of sight).
 */
export function JobsPage() {
  const params = useTableParams({ filters: ['status'] });
  const filter: StaffJobFilter = params.filters.status === 'retrying' ? 'retrying' : 'dead';
  const view = VIEW_OF[filter];
  const { data, isPending, error, refetch } = useJobs({
    ...(filter === 'retrying' ? { status: 'retrying' as const } : {}),
    ...(params.cursor ? { cursor: params.cursor } : {}),
  });
  return (
    <>
      <StaffPageHeader
        title="Jobs"
        description="Background work that failed: emails, analytics and payment events. Each is retried with a growing delay; one that failed at every attempt is given up and waits here for a retry."
      />
      <SegmentedControl
        label="Show jobs"
        value={view}
        options={VIEWS}
        onChange={(next) => params.setFilters({ status: next === 'Retrying' ? 'retrying' : undefined })}
        className="mb-4"
      />
      <DataTable
        caption={view === 'Given up' ? 'Jobs given up' : 'Jobs waiting for a retry'}
        columns={columns(view)}
        rowKey={(job) => job.id}
        rows={data?.jobs}
        isPending={isPending}
        error={error}
        onRetry={() => void refetch()}
        nextCursor={data?.next_cursor}
        params={params}
        emptyText={view === 'Given up' ? 'No job has been given up.' : 'No job is failing right now.'}
      />
    </>
  );
}
