import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { toast } from 'sonner';
import type { ThemeFileUpdateRun } from '@keyport/shared/contracts/theme-file-updates';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { paths } from '../../../lib/paths';
import { slugFor } from '../routing/route-theme-file-update';
import { serverMessage } from '../../../lib/api-client';
import { downloadRunFile, type RunFile } from '../api/download-run-file';
import { themeFileUpdateRunsQueryOptions } from '../api/theme-file-update-queries';

const STATUS_TEXT: Record<ThemeFileUpdateRun['status'], string> = {
  running: 'In progress',
  succeeded: 'Done',
  failed: 'Failed',
  cancelled: 'Cancelled',
};

/** The upgrade page that shows this run (its progress while it runs). */
function runPagePath(run: ThemeFileUpdateRun): string {
  const slug = slugFor(run.source.edition, run.target.edition);
  return slug ? paths.upgradeFile(slug) : paths.updateFile;
}

function RunRow({ run }: { run: ThemeFileUpdateRun }) {
  const [busy, setBusy] = useState(false);
  async function download(file: RunFile) {
    setBusy(true);
    try {
      await downloadRunFile(run.id, file);
    } catch (error) {
      toast.error(serverMessage(error) ?? 'Download failed');
    } finally {
      setBusy(false);
    }
  }
  return (
    <li className="flex flex-wrap items-center gap-x-4 gap-y-2 px-4 py-3 text-sm">
      <span className="min-w-0 flex-1">
        <span className="block font-medium text-slate-900">
          {run.source.edition} {run.source.version ?? ''} → {run.target.edition} {run.target.version ?? ''}
        </span>
        <span className="block text-slate-600">
          {new Date(run.created_at).toLocaleString()} · {STATUS_TEXT[run.status]}
          {run.connection_moved ? ' · store moved to the higher key' : ''}
        </span>
      </span>
      {run.status === 'running' ? (
        <Link
          to={`${runPagePath(run)}?run=${run.id}`}
          className="text-sm font-medium text-brand-700 underline-offset-2 hover:underline"
        >
          See progress
        </Link>
      ) : run.download_url ? (
        <span className="flex flex-wrap gap-2">
          <Button size="sm" variant="secondary" disabled={busy} onClick={() => void download('theme')}>
            Download theme
          </Button>
          {run.report_html_url ? (
            <Button size="sm" variant="ghost" disabled={busy} onClick={() => void download('html')}>
              Report
            </Button>
          ) : null}
        </span>
      ) : run.status === 'succeeded' ? (
        <span className="text-slate-500">Files expired</span>
      ) : null}
    </li>
  );
}

/** A key's theme upgrade runs (as source or target), newest first, with their files while they are kept (7 days). */
export function ThemeFileUpdateRuns({ licenseKey }: { licenseKey: string }) {
  const runs = useQuery(themeFileUpdateRunsQueryOptions(licenseKey));
  if (runs.isPending) return null;
  return (
    <section aria-labelledby="theme-file-update-runs-heading" className="mt-6">
      <h2 id="theme-file-update-runs-heading" className="mb-2 text-lg font-semibold text-slate-900">
        Theme upgrades
      </h2>
      {runs.isError ? (
        <Alert>{serverMessage(runs.error) ?? 'Failed to load theme upgrades'}</Alert>
      ) : runs.data.runs.length === 0 ? (
        <p className="text-sm text-slate-600">No theme upgrades for this key yet.</p>
      ) : (
        <ul className="divide-y divide-slate-100 rounded-xl border border-slate-200 bg-white">
          {runs.data.runs.map((run) => (
            <RunRow key={run.id} run={run} />
          ))}
        </ul>
      )}
    </section>
  );
}
