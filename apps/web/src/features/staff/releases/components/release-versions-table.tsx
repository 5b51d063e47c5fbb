import type { StaffRelease } from '@keyport/shared/contracts/releases';
import { Alert } from '../../../../components/ui/alert';
import { Badge } from '../../../../components/ui/badge';
import { Button } from '../../../../components/ui/button';
import { Skeleton } from '../../../../components/ui/skeleton';
import { serverMessage } from '../../../../lib/api-client';
import { formatBytes } from '../../../../lib/format-bytes';
import { ConfirmAction } from '../../components/confirm-action';
import { useMakeReleaseCurrent } from '../api/make-release-current';

const formatDate = (iso: string) => new Date(iso).toISOString().slice(0, 16).replace('T', ' ');

/**
 * One edition's versions, newest first: notes, size, upload date, how many stores run it, the current one marked;
 * "Files" opens the manifest, "Make current" (ConfirmAction, with a reason) changes what customers download.
 */
export function ReleaseVersionsTable({
  releases,
  isPending,
  error,
  currentChosen,
  selectedId,
  onSelect,
}: {
  releases: StaffRelease[] | undefined;
  isPending: boolean;
  error: unknown;
  currentChosen: boolean;
  selectedId: number | null;
  onSelect: (id: number) => void;
}) {
  const makeCurrent = useMakeReleaseCurrent();
  if (isPending) return <Skeleton className="h-32 w-full" />;
  if (error) return <Alert>{serverMessage(error) ?? 'The releases could not be loaded.'}</Alert>;
  if (!releases || releases.length === 0)
    return <p className="text-sm text-slate-600">No release of this edition yet.</p>;
  const current = releases.find((release) => release.current);
  return (
    <div className="relative overflow-x-auto rounded-xl border border-slate-200 bg-white">
      <table className="w-full min-w-[720px] text-left text-sm">
        <caption className="sr-only">Versions</caption>
        <thead className="bg-slate-50 text-xs uppercase tracking-wide text-slate-600">
          <tr>
            <th scope="col" className="px-3 py-2">
              Version
            </th>
            <th scope="col" className="px-3 py-2">
              Notes
            </th>
            <th scope="col" className="px-3 py-2">
              Size
            </th>
            <th scope="col" className="px-3 py-2">
              Uploaded (UTC)
            </th>
            <th scope="col" className="px-3 py-2">
              Stores
            </th>
            <th scope="col" className="px-3 py-2">
              <span className="sr-only">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {releases.map((release) => (
            <tr key={release.id} aria-selected={release.id === selectedId} className="align-top">
              <th scope="row" className="px-3 py-2 font-medium text-slate-900">
                {release.version}{' '}
                {release.current ? (
                  <Badge className="bg-emerald-100 text-emerald-800">
                    {currentChosen ? 'Current' : 'Current (newest)'}
                  </Badge>
                ) : null}
              </th>
              <td className="max-w-xs px-3 py-2 whitespace-pre-line text-slate-700">{release.notes || '—'}</td>
              <td className="px-3 py-2 text-slate-700">{formatBytes(release.size_bytes)}</td>
              <td className="px-3 py-2 text-slate-700">{formatDate(release.created_at)}</td>
              <td className="px-3 py-2 text-slate-700">{release.stores}</td>
              <td className="px-3 py-2">
                <div className="flex flex-wrap justify-end gap-2">
                  <Button
                    variant="ghost"
                    size="sm"
                    onClick={() => onSelect(release.id)}
                    aria-label={`Files of ${release.version}`}
                  >
                    Files
                  </Button>
                  <ConfirmAction
                    triggerLabel={<span aria-label={`Make ${release.version} current`}>Make current</span>}
                    disabled={release.current}
                    title={`Make ${release.edition} ${release.version} current?`}
                    description={`Customers with a ${release.edition} license will download ${release.version}${
                      current ? ` instead of ${current.version}` : ''
                    } from now on. Stores already running another version are not changed.`}
                    confirmLabel="Make current"
                    onConfirm={(reason) =>
                      makeCurrent.mutateAsync({ params: { id: String(release.id) }, body: { reason } })
                    }
                  />
                </div>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
