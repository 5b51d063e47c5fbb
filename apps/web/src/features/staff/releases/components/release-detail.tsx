import { describeMigrationMap } from '@keyport/shared/contracts/migration-map';
import { Alert } from '../../../../components/ui/alert';
import { Skeleton } from '../../../../components/ui/skeleton';
import { serverMessage } from '../../../../lib/api-client';
import { useStaffRelease } from '../api/get-staff-release';

/** A release's per-file manifest (path and sha256) and the stores whose newest download it was. */
export function ReleaseDetail({ id }: { id: number }) {
  const { data, isPending, error } = useStaffRelease(id);
  if (isPending) return <Skeleton className="h-40 w-full" />;
  if (error) return <Alert>{serverMessage(error) ?? 'The release could not be loaded.'}</Alert>;
  const { release, manifest, stores, migration_map: migrationMap } = data;
  const renames = migrationMap ? describeMigrationMap(migrationMap) : [];
  return (
    <section
      aria-labelledby="release-detail-title"
      className="space-y-4 rounded-xl border border-slate-200 bg-white p-4"
    >
      <h2 id="release-detail-title" className="text-lg font-semibold text-slate-900">
        {release.edition} {release.version}: {manifest.length} files
      </h2>
      <div>
        <h3 className="mb-2 text-sm font-semibold text-slate-800">Stores running it ({release.stores})</h3>
        {stores.length === 0 ? (
          <p className="text-sm text-slate-600">
            No store runs this version yet (by its newest download or license check-in).
          </p>
        ) : (
          <ul className="space-y-1 text-sm text-slate-700">
            {stores.map((store) => (
              <li key={store.key_id}>
                {store.store ?? 'Not connected'}{' '}
                <span className="text-slate-500">
                  (key #{store.key_id}, {store.seen_by === 'check-in' ? 'checked in' : 'downloaded'}{' '}
                  {store.seen_at.slice(0, 10)})
                </span>
              </li>
            ))}
          </ul>
        )}
      </div>
      <div>
        <h3 className="mb-2 text-sm font-semibold text-slate-800">
          Migration map ({renames.length} {renames.length === 1 ? 'rename' : 'renames'})
        </h3>
        {renames.length === 0 ? (
          <p className="text-sm text-slate-600">
            None: theme-file upgrades to this version rename nothing (a renamed setting is reported as dropped).
          </p>
        ) : (
          <ul
            aria-label={`Renames of ${release.version}`}
            className="space-y-1 font-mono text-xs break-words text-slate-700"
          >
            {renames.map((line) => (
              <li key={line}>{line}</li>
            ))}
          </ul>
        )}
      </div>
      {/* Focusable, so a keyboard can scroll a long list of files (axe: scrollable-region-focusable). */}
      <div
        role="region"
        aria-label={`Files of ${release.version}`}
        tabIndex={0}
        className="max-h-96 overflow-auto focus-visible:ring-2 focus-visible:ring-brand-500 focus-visible:outline-none"
      >
        <table className="w-full text-left text-sm">
          <caption className="sr-only">Files of {release.version}</caption>
          <thead className="sticky top-0 bg-slate-50 text-xs uppercase tracking-wide text-slate-600">
            <tr>
              <th scope="col" className="px-3 py-2">
                File
              </th>
              <th scope="col" className="px-3 py-2">
                SHA-256
              </th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100 font-mono text-xs">
            {manifest.map((file) => (
              <tr key={file.path}>
                <td className="px-3 py-1.5 break-all text-slate-800">{file.path}</td>
                <td className="px-3 py-1.5 text-slate-600" title={file.sha256}>
                  {file.sha256.slice(0, 16)}…
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}
