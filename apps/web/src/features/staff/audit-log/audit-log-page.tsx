import { AUDIT_ACTOR_TYPES, type AuditEntry } from '@keyport/shared/contracts/audit';
import { DataTable, type Column } from '../components/data-table';
import { StaffPageHeader } from '../components/staff-layout';
import { TableFilters, type FilterField } from '../components/table-filters';
import { useTableParams } from '../components/use-table-params';
import { useAuditLog } from './api/list-audit-log';

const FILTERS = ['actor_type', 'actor', 'customer', 'key', 'action'] as const;
type AuditFilter = (typeof FILTERS)[number];

const FILTER_FIELDS: FilterField<AuditFilter>[] = [
  { name: 'actor', label: 'Actor', placeholder: 'Email, user id or provider' },
  {
    name: 'actor_type',
    label: 'Actor type',
    options: AUDIT_ACTOR_TYPES.map((type) => ({ value: type, label: type[0]!.toUpperCase() + type.slice(1) })),
  },
  { name: 'customer', label: 'Customer', placeholder: 'Email or user id' },
  { name: 'key', label: 'Key id', placeholder: 'e.g. 42' },
  { name: 'action', label: 'Action', placeholder: 'e.g. homepage.published' },
];

const when = new Intl.DateTimeFormat('en', { dateStyle: 'medium', timeStyle: 'medium', timeZone: 'UTC' });

const who = (entry: AuditEntry) => entry.actor_email ?? (entry.actor_id ? `${entry.actor_id}` : entry.actor_type);

const COLUMNS: Column<AuditEntry>[] = [
  {
    key: 'at',
    header: 'When (UTC)',
    className: 'whitespace-nowrap',
    cell: (entry) => <time dateTime={entry.at}>{when.format(new Date(entry.at))}</time>,
  },
  {
    key: 'actor',
    header: 'Who',
    cell: (entry) => (
      <>
        <span className="block font-medium break-all">{who(entry)}</span>
        <span className="text-xs text-slate-600">{entry.actor_type}</span>
      </>
    ),
  },
  { key: 'action', header: 'What', cell: (entry) => <code className="text-xs">{entry.action}</code> },
  {
    key: 'object',
    header: 'Object',
    className: 'whitespace-nowrap',
    cell: (entry) => `${entry.object_type.replaceAll('_', ' ')} #${entry.object_id}`,
  },
  {
    key: 'customer',
    header: 'Customer',
    cell: (entry) =>
      entry.customer_user_id === null ? (
        <span className="text-slate-500">—</span>
      ) : (
        <span className="break-all">{entry.customer_email ?? `#${entry.customer_user_id}`}</span>
      ),
  },
  {
    key: 'reason',
    header: 'Reason',
    className: 'min-w-48',
    cell: (entry) => entry.reason ?? <span className="text-slate-500">—</span>,
  },
];

/**
 * /staff/audit-log: who did what, when, to which object, and why; filters and the page in the URL. Read-only: the
 * log has no edit or delete anywhere (neither here nor on the server).
 */
export function AuditLogPage() {
  const params = useTableParams({ filters: FILTERS });
  const { filters } = params;
  const log = useAuditLog({
    actor_type: AUDIT_ACTOR_TYPES.find((type) => type === filters.actor_type),
    actor: filters.actor,
    customer: filters.customer,
    key: filters.key,
    action: filters.action,
    before_id: params.cursor,
    limit: '50',
  });
  return (
    <>
      <StaffPageHeader
        title="Audit log"
        description="Every staff write and every money or credit movement, newest first. Entries are never edited or deleted."
      />
      <TableFilters fields={FILTER_FIELDS} params={params} label="Filter the audit log" />
      <DataTable
        caption="Audit log entries"
        columns={COLUMNS}
        rowKey={(entry) => entry.id}
        rows={log.data?.entries}
        isPending={log.isPending}
        error={log.error}
        onRetry={() => void log.refetch()}
        nextCursor={log.data?.next_cursor}
        params={params}
        emptyText="No entries match these filters."
      />
    </>
  );
}
