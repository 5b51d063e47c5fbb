import { ChevronRight, Download, FileArchive, FileJson, FileText } from 'lucide-react';
import { useState } from 'react';
import { toast } from 'sonner';
import {
  REPORT_GROUP_ORDER,
  REPORT_GROUP_TEXT,
  type ReportGroup,
  type ReportItem,
  type ThemeFileUpdateRun,
} from '@keyport/shared/contracts/theme-file-updates';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { serverMessage } from '../../../lib/api-client';
import { downloadRunFile, type RunFile } from '../api/download-run-file';

const BADGE: Record<ReportGroup, string> = {
  review: 'bg-amber-100 text-amber-900',
  dropped: 'bg-red-100 text-red-800',
  moved: 'bg-sky-100 text-sky-900',
  kept: 'bg-emerald-100 text-emerald-900',
};
/** Items shown per group before "Show all" (a theme can have hundreds of changes). */
const PAGE = 100;

const show = (value: unknown) => (typeof value === 'string' ? value : JSON.stringify(value));

function Group({ group, items }: { group: ReportGroup; items: ReportItem[] }) {
  const [all, setAll] = useState(false);
  const text = REPORT_GROUP_TEXT[group];
  const visible = all ? items : items.slice(0, PAGE);
  return (
    <details className="group rounded-xl border border-slate-200 bg-white">
      <summary className="flex cursor-pointer list-none items-center gap-2 px-4 py-3 font-medium text-slate-900 [&::-webkit-details-marker]:hidden">
        <ChevronRight
          aria-hidden="true"
          className="size-4 shrink-0 text-slate-500 transition-transform group-open:rotate-90 motion-reduce:transition-none"
        />
        <Badge className={BADGE[group]}>{items.length}</Badge>
        {text.title}
      </summary>
      <p className="px-4 pb-2 text-sm text-slate-600">{text.explanation}</p>
      {items.length === 0 ? (
        <p className="px-4 pb-3 text-sm text-slate-500">Nothing.</p>
      ) : (
        <ul className="divide-y divide-slate-100 border-t border-slate-100">
          {visible.map((item, index) => (
            <li key={`${item.file}#${item.path ?? ''}#${index}`} className="px-4 py-2 text-sm">
              <p className="font-mono text-xs break-all text-slate-800">
                {item.file}
                {item.path ? <span className="text-slate-500"> › {item.path}</span> : null}
              </p>
              {item.from?.path ? (
                <p className="font-mono text-xs break-all text-slate-500">was {item.from.path}</p>
              ) : null}
              <p className="text-slate-600">{item.reason}</p>
              {item.yours !== undefined ? (
                <p className="font-mono text-xs break-all text-slate-600">yours: {show(item.yours)}</p>
              ) : null}
              {item.theirs !== undefined ? (
                <p className="font-mono text-xs break-all text-slate-600">the new version’s: {show(item.theirs)}</p>
              ) : null}
              {item.diff ? (
                <details className="mt-1">
                  <summary className="cursor-pointer text-xs text-slate-600">Diff</summary>
                  <pre className="mt-1 max-h-80 overflow-auto rounded bg-slate-50 p-2 text-xs">{item.diff}</pre>
                </details>
              ) : null}
            </li>
          ))}
        </ul>
      )}
      {items.length > visible.length ? (
        <div className="border-t border-slate-100 px-4 py-2">
          <Button size="sm" variant="ghost" onClick={() => setAll(true)}>
            Show all {items.length}
          </Button>
        </div>
      ) : null}
    </details>
  );
}

/**
 * What the export was (the release found by its files, else the edition it says) and what it became (the target key's
 * edition and release): never the key's tier for the export's.
 */
export function fromTo(run: ThemeFileUpdateRun): string {
  const found = run.report?.detection.confident ? run.report.detection.release : null;
  const source = found
    ? `${found.edition} ${found.version}`
    : `${run.source.edition}${run.source.version ? ` ${run.source.version}` : ''}`;
  const target = `${run.target.edition}${run.target.version ? ` ${run.target.version}` : ''}`;
  const verb = run.source.edition === run.target.edition ? 'Updated' : 'Upgraded';
  return `${verb} from your ${source} theme to ${target}.`;
}

/** The run's report on the page: counts, every decision by kind, and the downloads (theme zip, JSON, HTML). */
export function UpgradeReport({ run }: { run: ThemeFileUpdateRun }) {
  const [busy, setBusy] = useState<RunFile | null>(null);
  const report = run.report;

  async function download(file: RunFile) {
    setBusy(file);
    try {
      await downloadRunFile(run.id, file);
    } catch (error) {
      toast.error(serverMessage(error) ?? 'Download failed');
    } finally {
      setBusy(null);
    }
  }

  return (
    <section aria-labelledby="upgrade-report-heading" className="space-y-4">
      <div className="rounded-xl border border-emerald-200 bg-emerald-50 p-4">
        <h2 id="upgrade-report-heading" className="text-lg font-semibold text-emerald-900">
          Your {run.target.edition} theme {run.target.version ?? ''} is ready
        </h2>
        <p className="mt-1 text-sm font-medium text-emerald-900">{fromTo(run)}</p>
        <p className="mt-1 text-sm text-emerald-900">
          Upload it in Shopify admin (Online Store → Themes → Add theme → Upload zip file), check it in the theme
          editor, then publish it.
          {run.connection_moved
            ? ` Your store is now connected to the ${run.target.edition} key; the ${run.source.edition} key is free to connect another store.`
            : ''}
        </p>
        <div className="mt-3 flex flex-wrap gap-2">
          <Button disabled={busy !== null || !run.download_url} onClick={() => void download('theme')}>
            <Download aria-hidden="true" className="size-4" />
            Download theme
          </Button>
          <Button
            variant="secondary"
            disabled={busy !== null || !run.report_json_url}
            onClick={() => void download('json')}
          >
            <FileJson aria-hidden="true" className="size-4" />
            Report (JSON)
          </Button>
          <Button
            variant="secondary"
            disabled={busy !== null || !run.report_html_url}
            onClick={() => void download('html')}
          >
            <FileText aria-hidden="true" className="size-4" />
            Report (HTML)
          </Button>
          {run.review_url ? (
            <Button variant="secondary" disabled={busy !== null} onClick={() => void download('review')}>
              <FileArchive aria-hidden="true" className="size-4" />
              Your edited files
            </Button>
          ) : null}
        </div>
        <p className="mt-2 text-xs text-emerald-900/80">
          You can download these again until {new Date(run.expires_at).toLocaleDateString()}.
        </p>
      </div>
      {report ? (
        <>
          <p className="text-sm text-slate-700">{report.detection.summary}</p>
          <dl className="grid grid-cols-2 gap-2 sm:grid-cols-4" aria-label="Report summary">
            {REPORT_GROUP_ORDER.map((group) => (
              <div key={group} className="rounded-lg border border-slate-200 bg-white px-3 py-2">
                <dt className="text-xs text-slate-500">{REPORT_GROUP_TEXT[group].title}</dt>
                <dd className="text-lg font-semibold text-slate-900">{report.summary[group]}</dd>
              </div>
            ))}
          </dl>
          {report.warnings.length > 0 ? (
            <ul className="list-disc space-y-1 rounded-xl border border-amber-200 bg-amber-50 py-3 pr-4 pl-8 text-sm text-amber-900">
              {report.warnings.map((warning) => (
                <li key={warning}>{warning}</li>
              ))}
            </ul>
          ) : null}
          <div className="space-y-2">
            {REPORT_GROUP_ORDER.map((group) => (
              <Group key={group} group={group} items={report.items.filter((item) => item.group === group)} />
            ))}
          </div>
          <details className="group rounded-xl border border-slate-200 bg-white">
            <summary className="flex cursor-pointer list-none items-center gap-2 px-4 py-3 font-medium text-slate-900 [&::-webkit-details-marker]:hidden">
              <ChevronRight
                aria-hidden="true"
                className="size-4 shrink-0 text-slate-500 transition-transform group-open:rotate-90 motion-reduce:transition-none"
              />
              What the new version changed by itself
            </summary>
            <p className="px-4 pb-2 text-sm text-slate-600">
              {report.vendor.updated.length} files updated, {report.vendor.added.length} added,{' '}
              {report.vendor.removed.length} removed; {report.vendor.unchanged} unchanged. Files you had not edited.
            </p>
            {[...report.vendor.updated, ...report.vendor.added, ...report.vendor.removed].length > 0 ? (
              <ul className="max-h-64 overflow-auto border-t border-slate-100 px-4 py-2 font-mono text-xs text-slate-700">
                {report.vendor.updated.map((file) => (
                  <li key={`u:${file}`}>updated {file}</li>
                ))}
                {report.vendor.added.map((file) => (
                  <li key={`a:${file}`}>added {file}</li>
                ))}
                {report.vendor.removed.map((file) => (
                  <li key={`r:${file}`}>removed {file}</li>
                ))}
              </ul>
            ) : null}
          </details>
        </>
      ) : null}
    </section>
  );
}
