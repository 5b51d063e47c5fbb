import { Loader2 } from 'lucide-react';
import { useId } from 'react';
import {
  THEME_FILE_UPDATE_PHASES,
  THEME_FILE_UPDATE_PHASE_TEXT,
  type ThemeFileUpdateRun,
} from '@keyport/shared/contracts/theme-file-updates';
import { Button } from '../../../components/ui/button';

/** How far a run is, 0..1: the phases done, plus the share of the current one its counts say. */
export function runFraction(run: Pick<ThemeFileUpdateRun, 'phase' | 'progress'>): number {
  const phases = THEME_FILE_UPDATE_PHASES.length;
  const index = run.phase ? THEME_FILE_UPDATE_PHASES.indexOf(run.phase) : 0;
  const within = run.progress && run.progress.total > 0 ? Math.min(1, run.progress.done / run.progress.total) : 0;
  return Math.min(1, (index + within) / phases);
}

/** A run in progress (a job on the server): its phase in words, a progress bar, and the owner's Cancel. */
export function RunProgress({
  run,
  onCancel,
  cancelling,
}: {
  run: ThemeFileUpdateRun;
  onCancel: () => void;
  cancelling: boolean;
}) {
  const labelId = useId();
  const percent = Math.round(runFraction(run) * 100);
  const phase = run.phase ?? 'queued';
  const step = THEME_FILE_UPDATE_PHASES.indexOf(phase) + 1;
  const counts = run.progress && run.progress.total > 0 ? ` (${run.progress.done} of ${run.progress.total})` : '';
  return (
    <section aria-labelledby={labelId} className="space-y-3 rounded-xl border border-slate-200 bg-white p-4">
      <h2 id={labelId} className="flex items-center gap-2 font-semibold text-slate-900">
        <Loader2 aria-hidden="true" className="size-4 animate-spin motion-reduce:animate-none" />
        Building your {run.target.edition} theme…
      </h2>
      <p role="status" className="text-sm text-slate-700">
        Step {step} of {THEME_FILE_UPDATE_PHASES.length}: {THEME_FILE_UPDATE_PHASE_TEXT[phase]}
        {counts}
      </p>
      <div
        role="progressbar"
        aria-label="Upgrade progress"
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={percent}
        className="h-2 overflow-hidden rounded-full bg-slate-200"
      >
        <div className="h-full bg-brand-600 transition-[width]" style={{ width: `${percent}%` }} />
      </div>
      <p className="text-xs text-slate-500">
        You can leave this page: the upgrade goes on, and its files appear under the license’s theme upgrades.
      </p>
      <Button variant="secondary" disabled={cancelling} onClick={onCancel}>
        {cancelling ? 'Cancelling…' : 'Cancel upgrade'}
      </Button>
    </section>
  );
}
