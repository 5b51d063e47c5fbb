import type { Release } from '@keyport/shared/contracts/releases';
import { StaffReasonSchema } from '@keyport/shared/contracts/staff';
import { TIERS, type Tier } from '@keyport/shared/domain/tiers';
import { useId, useRef, useState, type FormEvent } from 'react';
import { Alert } from '../../../../components/ui/alert';
import { Button } from '../../../../components/ui/button';
import { Field } from '../../../../components/ui/field';
import { Textarea } from '../../../../components/ui/textarea';
import { formatBytes } from '../../../../lib/format-bytes';
import { useUploadRelease } from '../api/upload-release';
import { checkMigrationMapFile, checkReleaseFile, uploadProblemOf, type UploadProblem } from '../upload-problems';

const selectClass =
  'h-10 w-full rounded-lg border border-slate-300 bg-white px-3 text-sm text-slate-900 focus:border-brand-500 focus:ring-2 focus:ring-brand-100 focus:outline-none';

/**
 * Upload a theme zip as a new release (issue 12): edition, version, notes, the reason (audited) and the file; a
 * progress bar while the bytes go up; the server's refusal shown as the problem it is (not a zip, not a theme, too
 * large, unsafe paths, a version that exists). The button is disabled while an upload runs: one upload at a time.
 */
export function UploadReleaseForm({
  edition,
  onUploaded,
}: {
  edition: Tier;
  /** The release just uploaded (the page shows its edition's tab and the release). */
  onUploaded?: (release: Release) => void;
}) {
  const upload = useUploadRelease();
  const [progress, setProgress] = useState<number | null>(null);
  const [problem, setProblem] = useState<UploadProblem | null>(null);
  const [reasonError, setReasonError] = useState<string | null>(null);
  const [uploaded, setUploaded] = useState<string | null>(null);
  const [file, setFile] = useState<File | null>(null);
  const [mapFile, setMapFile] = useState<File | null>(null);
  const formRef = useRef<HTMLFormElement>(null);
  const ids = {
    edition: useId(),
    notes: useId(),
    reason: useId(),
    file: useId(),
    map: useId(),
    progress: useId(),
  };

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (upload.isPending) return;
    const data = new FormData(event.currentTarget);
    setUploaded(null);
    const reason = StaffReasonSchema.safeParse(String(data.get('reason') ?? ''));
    setReasonError(reason.success ? null : (reason.error.issues[0]?.message ?? 'Give a reason'));
    const fileProblem = checkReleaseFile(file) ?? checkMigrationMapFile(mapFile);
    setProblem(fileProblem);
    if (!reason.success || fileProblem || !file) return;
    setProgress(0);
    try {
      const release = await upload.mutateAsync({
        edition: String(data.get('edition')) as Tier,
        version: String(data.get('version') ?? '').trim(),
        notes: String(data.get('notes') ?? ''),
        reason: reason.data,
        migrationMap: mapFile,
        file,
        onProgress: setProgress,
      });
      setUploaded(`${release.edition} ${release.version} is uploaded.`);
      formRef.current?.reset();
      setFile(null);
      setMapFile(null);
      onUploaded?.(release);
    } catch (error) {
      setProblem(uploadProblemOf(error));
    } finally {
      setProgress(null);
    }
  };

  return (
    <form
      ref={formRef}
      onSubmit={submit}
      aria-labelledby={`${ids.edition}-title`}
      className="space-y-4 rounded-xl border border-slate-200 bg-white p-4"
      noValidate
    >
      <h2 id={`${ids.edition}-title`} className="text-lg font-semibold text-slate-900">
        Upload a release
      </h2>
      <div className="grid gap-4 sm:grid-cols-2">
        <div className="space-y-1.5">
          <label htmlFor={ids.edition} className="block text-sm font-medium text-slate-700">
            Edition
          </label>
          <select id={ids.edition} name="edition" defaultValue={edition} key={edition} className={selectClass}>
            {TIERS.map((tier) => (
              <option key={tier} value={tier}>
                {tier}
              </option>
            ))}
          </select>
        </div>
        <Field label="Version" name="version" placeholder="4.2.0" required autoComplete="off" />
      </div>
      <div className="space-y-1.5">
        <label htmlFor={ids.notes} className="block text-sm font-medium text-slate-700">
          Release notes
        </label>
        <Textarea id={ids.notes} name="notes" maxLength={5000} />
      </div>
      <div className="space-y-1.5">
        <label htmlFor={ids.reason} className="block text-sm font-medium text-slate-700">
          Reason (recorded in the audit log)
        </label>
        <Textarea
          id={ids.reason}
          name="reason"
          maxLength={500}
          aria-invalid={reasonError ? true : undefined}
          aria-describedby={reasonError ? `${ids.reason}-error` : undefined}
          className="min-h-12"
        />
        {reasonError ? (
          <p id={`${ids.reason}-error`} role="alert" className="text-sm text-red-600">
            {reasonError}
          </p>
        ) : null}
      </div>
      <div className="space-y-1.5">
        <label htmlFor={ids.file} className="block text-sm font-medium text-slate-700">
          Theme zip
        </label>
        <input
          id={ids.file}
          name="file"
          type="file"
          accept=".zip,application/zip"
          onChange={(event) => setFile(event.currentTarget.files?.[0] ?? null)}
          className="block w-full text-sm text-slate-700 file:mr-3 file:rounded-md file:border-0 file:bg-slate-100 file:px-3 file:py-2 file:text-sm file:font-medium"
        />
        {file ? <p className="text-sm text-slate-600">{formatBytes(file.size)}</p> : null}
      </div>
      <div className="space-y-1.5">
        <label htmlFor={ids.map} className="block text-sm font-medium text-slate-700">
          Migration map (optional)
        </label>
        <input
          id={ids.map}
          name="migration_map"
          type="file"
          accept=".json,application/json"
          aria-describedby={`${ids.map}-help`}
          onChange={(event) => setMapFile(event.currentTarget.files?.[0] ?? null)}
          className="block w-full text-sm text-slate-700 file:mr-3 file:rounded-md file:border-0 file:bg-slate-100 file:px-3 file:py-2 file:text-sm file:font-medium"
        />
        <p id={`${ids.map}-help`} className="text-sm text-slate-600">
          A JSON file of what this version renamed since the previous one (settings, colour schemes, sections, blocks),
          so theme-file upgrades move a store&rsquo;s values instead of dropping them. Every new name must exist in this
          release.
        </p>
      </div>
      {progress !== null ? (
        <div className="space-y-1">
          <p id={ids.progress} className="text-sm text-slate-700">
            Uploading… {Math.round(progress * 100)}%
          </p>
          <div
            role="progressbar"
            aria-labelledby={ids.progress}
            aria-valuemin={0}
            aria-valuemax={100}
            aria-valuenow={Math.round(progress * 100)}
            className="h-2 w-full overflow-hidden rounded-full bg-slate-100"
          >
            <div className="h-full bg-brand-600 transition-[width]" style={{ width: `${progress * 100}%` }} />
          </div>
        </div>
      ) : null}
      {problem ? (
        <Alert tone="error">
          <p className="font-semibold">{problem.title}</p>
          <p>{problem.detail}</p>
        </Alert>
      ) : null}
      {uploaded ? (
        <p role="status" className="text-sm font-medium text-emerald-700">
          {uploaded}
        </p>
      ) : null}
      <Button type="submit" disabled={upload.isPending}>
        {upload.isPending ? 'Uploading…' : 'Upload release'}
      </Button>
    </form>
  );
}
