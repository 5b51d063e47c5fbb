import type { LicenseSighting } from '@keyport/shared/contracts/licenses';
import { Link } from 'react-router';
import { DataTable, type Column } from '../components/data-table';
import { StaffPageHeader } from '../components/staff-layout';
import { TableFilters } from '../components/table-filters';
import { useTableParams } from '../components/use-table-params';
import { staffPaths } from '../staff-paths';
import { useSightings } from './api/list-sightings';

const when = new Intl.DateTimeFormat('en', { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' });
const at = (iso: string) => <time dateTime={iso}>{when.format(new Date(iso))}</time>;

/** "2 pending · 1 approved": the store reports naming the domain, or "None". */
export function reportsText(reports: LicenseSighting['reports']): string {
  const parts = (['pending', 'approved', 'rejected'] as const)
    .filter((status) => reports[status] > 0)
    .map((status) => `${reports[status]} ${status}`);
  return parts.length > 0 ? parts.join(' · ') : 'None';
}

const COLUMNS: Column<LicenseSighting>[] = [
  {
    key: 'domain',
    header: 'Domain',
    // Wide enough for a usual domain on one line; a very long one breaks between words first.
    className: 'min-w-44',
    cell: (sighting) => <span className="font-medium break-words text-slate-900">{sighting.domain}</span>,
  },
  {
    key: 'checkins',
    header: 'Check-ins',
    className: 'tabular-nums',
    cell: (sighting) => sighting.checkins.toLocaleString('en'),
  },
  { key: 'first', header: 'First seen (UTC)', className: 'whitespace-nowrap', cell: (s) => at(s.first_seen_at) },
  { key: 'last', header: 'Last seen (UTC)', className: 'whitespace-nowrap', cell: (s) => at(s.last_seen_at) },
  {
    key: 'versions',
    header: 'Theme',
    cell: (sighting) =>
      sighting.versions.length > 0
        ? sighting.versions.map((version, index) => (
            <span key={version} className="whitespace-nowrap">
              {version}
              {index < sighting.versions.length - 1 ? ', ' : ''}
            </span>
          ))
        : '—',
  },
  {
    key: 'keys',
    header: 'Token of key',
    cell: (sighting) => (
      <ul className="space-y-0.5">
        {sighting.keys.map((key) => (
          <li key={key.id} className="wrap-anywhere">
            <span className="text-slate-600">#{key.id}</span>{' '}
            {key.owner_email ? (
              <Link
                to={`${staffPaths.customers}?q=${encodeURIComponent(key.owner_email)}`}
                className="text-brand-700 underline-offset-2 hover:underline"
              >
                {key.owner_email}
              </Link>
            ) : (
              <span className="text-slate-500">no owner</span>
            )}
          </li>
        ))}
      </ul>
    ),
  },
  { key: 'reports', header: 'Store reports', cell: (sighting) => reportsText(sighting.reports) },
];

/**
 * `/staff/sightings` (issue 13): domains seen running a theme whose token no key of ours covers — the evidence behind
 * "seen running an unlicensed copy" — most recent first, searchable by domain (`?q=`), a page at a time.
 */
export function SightingsPage() {
  const params = useTableParams({ filters: ['q'] });
  const { data, isPending, error, refetch } = useSightings({ q: params.filters.q, cursor: params.cursor });
  return (
    <>
      <StaffPageHeader
        title="Sightings"
        description="Stores seen running our theme with a token that does not cover their domain: likely unlicensed copies. Counts come from the theme's license checks."
      />
      <TableFilters
        label="Search sightings"
        params={params}
        fields={[{ name: 'q', label: 'Search', placeholder: 'Domain' }]}
      />
      <DataTable
        caption="License sightings"
        columns={COLUMNS}
        rowKey={(sighting) => sighting.domain}
        rows={data?.sightings}
        isPending={isPending}
        error={error}
        onRetry={() => void refetch()}
        nextCursor={data?.next_cursor}
        params={params}
        emptyText={
          params.filters.q
            ? `No sighting matches “${params.filters.q}”.`
            : 'No store has been seen with a foreign token.'
        }
      />
    </>
  );
}
