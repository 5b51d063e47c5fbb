import { ArrowLeft, ArrowRight, Loader2 } from 'lucide-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useMemo, useRef, useState } from 'react';
import { Link, useLocation, useSearchParams } from 'react-router';
import { toast } from 'sonner';
import type { Key } from '@keyport/shared/contracts/keys';
import { targetConsentText, type ThemeFileUpdateRun } from '@keyport/shared/contracts/theme-file-updates';
import { deriveStoreCard } from '@keyport/shared/domain/store-card';
import { tierFromFlags, type Tier } from '@keyport/shared/domain/tiers';
import { Alert } from '../../../components/ui/alert';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { Select } from '../../../components/ui/select';
import { TIER_STYLES } from '../../../components/ui/tier-style';
import { serverMessage } from '../../../lib/api-client';
import { paths } from '../../../lib/paths';
import { queryKeys } from '../../../lib/query-keys';
import { useOwnKeys } from '../api/get-keys';
import { cancelRun, useThemeFileUpdatePreview, useThemeFileUpdateRun } from '../api/theme-file-update-queries';
import { uploadTheme } from '../api/upload-theme';
import type { UpgradeFileSlug } from '../routing/route-theme-file-update';
import { resolveUpgradeKeys } from '../resolve-upgrade-keys';
import { readThemeFileUpdateInfo, readUpgradeInfo } from '../upgrade-storage';
import { ThemeDropZone } from './theme-drop-zone';
import { RunProgress } from './run-progress';
import { UpdateKeyPicker, UpgradeChoicePrompt } from './upgrade-key-prompts';
import { UpgradeReport } from './upgrade-report';

const UPLOAD_FAILED = 'The upload failed. Check your connection and try again.';

function LicenseSide({
  label,
  licenseKey,
  edition,
  version,
}: {
  label: string;
  licenseKey: Key;
  edition: Tier;
  version: string | null | undefined;
}) {
  const card = deriveStoreCard(licenseKey);
  return (
    <div className="min-w-0 flex-1 rounded-xl border border-slate-200 bg-white p-4">
      <p className="text-xs font-medium tracking-wide text-slate-500 uppercase">{label}</p>
      <p className="mt-1 flex flex-wrap items-center gap-2">
        <Badge className={TIER_STYLES[edition].badge}>{edition}</Badge>
        <span className="font-semibold text-slate-900">
          {version === undefined ? '…' : version === null ? 'version read from your export' : `version ${version}`}
        </span>
      </p>
      <p className="mt-1 truncate font-mono text-xs text-slate-600" title={licenseKey.api_key}>
        {licenseKey.api_key}
      </p>
      <p className="truncate text-sm text-slate-600">{card.installed ? card.domain : 'No store connected'}</p>
    </div>
  );
}

/**
 * §2 /customer/update_file and /customer/upgrade_file/{lite-to-reg, reg-lite-to-pro, lite-to-pro}: names the source
 * and target license, edition and version; explains the Shopify export; takes the zip (drop or pick) with upload
 * progress; asks before a higher edition moves the store's connection; then shows the report and its downloads.
 */
export function ThemeFileUpdatePage({ page }: { page: UpgradeFileSlug | 'update' }) {
  const [searchParams, setSearchParams] = useSearchParams();
  const queryClient = useQueryClient();
  // A choice made while on the page (the chooser navigates here again) is read afresh from storage.
  const location = useLocation();
  const keys = useOwnKeys();
  const resolved = useMemo(
    () =>
      keys.data
        ? resolveUpgradeKeys({
            page,
            query: { target: searchParams.get('target'), source: searchParams.get('source') },
            themeUpgradeInfo: readThemeFileUpdateInfo(),
            upgradeInfo: readUpgradeInfo(),
            keys: keys.data,
          })
        : null,
    // eslint-disable-next-line react-hooks/exhaustive-deps -- location.key: storage was written before this navigation
    [keys.data, page, searchParams, location.key],
  );
  // The customer chooses the target among their keys of the target's edition (the stored choice is the default).
  const [chosenTargetId, setChosenTargetId] = useState<number | null>(null);
  const eligibleTargets = useMemo(
    () =>
      resolved && keys.data && page !== 'update'
        ? keys.data.filter(
            (key) => tierFromFlags(key) === tierFromFlags(resolved.target) && key.id !== resolved.source.id,
          )
        : [],
    [resolved, keys.data, page],
  );
  const target = eligibleTargets.find((key) => key.id === chosenTargetId) ?? resolved?.target ?? null;
  const preview = useThemeFileUpdatePreview(resolved?.source.api_key ?? null, target?.api_key ?? null);
  const runParam = searchParams.get('run');
  const runQuery = useThemeFileUpdateRun(runParam);
  const run: ThemeFileUpdateRun | null = runQuery.data?.run ?? null;

  const [file, setFile] = useState<File | null>(null);
  const [fileError, setFileError] = useState<string | null>(null);
  const [confirmed, setConfirmed] = useState(false);
  const [consented, setConsented] = useState(false);
  const [progress, setProgress] = useState(0);
  const confirmId = useId();
  const consentId = useId();
  const targetSelectId = useId();
  const progressLabelId = useId();

  const isUpgrade = preview.data?.kind === 'upgrade';
  const needsConfirm = isUpgrade && preview.data?.source_connected === true;
  // ADR 041: moving the store to a key that licenses another store takes that store's license: asked for by name.
  const targetStore = needsConfirm ? (preview.data?.target_store ?? null) : null;
  const upload = useMutation({
    mutationFn: (input: { source: Key; target: Key; file: File }) =>
      uploadTheme({
        sourceKey: input.source.api_key,
        targetKey: input.target.api_key,
        moveConnection: needsConfirm && confirmed,
        consentStore: targetStore && consented ? targetStore : null,
        file: input.file,
        onProgress: setProgress,
      }),
    onMutate: () => {
      setProgress(0);
      setFileError(null);
    },
    onSuccess: (result) => {
      // The server answers at once with the run in progress; the page polls it from here.
      queryClient.setQueryData(queryKeys.themeFileUpdateRun(String(result.id)), { run: result });
      const next = new URLSearchParams(searchParams);
      next.set('run', String(result.id));
      setSearchParams(next, { replace: true });
      void queryClient.invalidateQueries({ queryKey: queryKeys.themeFileUpdateRunsAll });
    },
    onError: (error) => setFileError(serverMessage(error) ?? UPLOAD_FAILED),
  });
  const cancel = useMutation({
    mutationFn: (id: number) => cancelRun(id),
    onSuccess: (result) => queryClient.setQueryData(queryKeys.themeFileUpdateRun(String(result.run.id)), result),
    onError: (error) => {
      toast.error(serverMessage(error) ?? 'Could not cancel the upgrade');
      void runQuery.refetch();
    },
  });

  // When a run ends, what it changed (a moved connection, a new token) is read again.
  const lastStatus = useRef(run?.status);
  useEffect(() => {
    if (lastStatus.current === 'running' && run && run.status !== 'running') {
      void queryClient.invalidateQueries({ queryKey: queryKeys.keys });
      void queryClient.invalidateQueries({ queryKey: queryKeys.themeFileUpdateRunsAll });
      void queryClient.invalidateQueries({ queryKey: queryKeys.upgradableKeys });
    }
    lastStatus.current = run?.status;
  }, [run, queryClient]);

  const title = page === 'update' ? 'Update theme files' : 'Upgrade theme files';

  let body;
  if (keys.isPending || (runParam && runQuery.isPending)) {
    body = (
      <p role="status" className="flex items-center gap-2 text-sm text-slate-600">
        <Loader2 aria-hidden="true" className="size-4 animate-spin motion-reduce:animate-none" />
        Loading your licenses…
      </p>
    );
  } else if (keys.isError) {
    body = <Alert>{serverMessage(keys.error) ?? 'Failed to fetch stores. Please try again later.'}</Alert>;
  } else if (run?.status === 'running') {
    body = <RunProgress run={run} cancelling={cancel.isPending} onCancel={() => cancel.mutate(run.id)} />;
  } else if (run?.status === 'succeeded') {
    body = <UpgradeReport run={run} />;
  } else if (!resolved || !target) {
    body = page === 'update' ? <UpdateKeyPicker keys={keys.data} /> : <UpgradeChoicePrompt />;
  } else {
    const { source } = resolved;
    const sourceEdition = preview.data?.source.edition ?? tierFromFlags(source);
    const targetEdition = preview.data?.target.edition ?? tierFromFlags(target);
    const uploading = upload.isPending;
    const ready =
      file !== null && preview.isSuccess && (!needsConfirm || confirmed) && (!targetStore || consented) && !uploading;
    const ended = run && (run.status === 'failed' || run.status === 'cancelled') ? run : null;
    body = (
      <div className="space-y-6">
        {ended ? (
          <Alert>
            {ended.error?.message ??
              (ended.status === 'cancelled' ? 'Upgrade cancelled.' : 'The upgrade could not be finished.')}
          </Alert>
        ) : null}
        <section aria-label="Source and target license" className="flex flex-col items-stretch gap-3 sm:flex-row">
          <LicenseSide
            label="Your store runs"
            licenseKey={source}
            edition={sourceEdition}
            version={preview.isPending ? undefined : (preview.data?.source.version ?? resolved.sourceVersion)}
          />
          <ArrowRight aria-hidden="true" className="size-5 shrink-0 self-center text-slate-400 max-sm:rotate-90" />
          <LicenseSide
            label={isUpgrade || page !== 'update' ? 'Upgraded to' : 'Updated to'}
            licenseKey={target}
            edition={targetEdition}
            version={preview.isPending ? undefined : (preview.data?.target.version ?? null)}
          />
        </section>
        {eligibleTargets.length > 1 ? (
          <div className="space-y-1">
            <label htmlFor={targetSelectId} className="text-sm font-medium text-slate-800">
              {targetEdition} license to use
            </label>
            <Select
              id={targetSelectId}
              value={String(target.id)}
              disabled={uploading}
              onChange={(event) => {
                setChosenTargetId(Number(event.target.value));
                setConsented(false);
              }}
            >
              {eligibleTargets.map((key) => {
                const card = deriveStoreCard(key);
                return (
                  <option key={key.id} value={key.id}>
                    {key.api_key} — {card.installed ? `licenses ${card.domain}` : 'no store connected'}
                  </option>
                );
              })}
            </Select>
          </div>
        ) : null}
        {preview.isError ? <Alert>{serverMessage(preview.error) ?? 'Failed to check upgrade options'}</Alert> : null}

        <section aria-labelledby="export-heading" className="rounded-xl border border-slate-200 bg-white p-4">
          <h2 id="export-heading" className="font-semibold text-slate-900">
            1. Export the theme your store runs
          </h2>
          <ol className="mt-2 list-decimal space-y-1 pl-5 text-sm text-slate-700">
            <li>In your Shopify admin, go to Online Store → Themes.</li>
            <li>
              On the theme you want to keep (usually the current theme), open the <strong>…</strong> menu and choose{' '}
              <strong>Download theme file</strong>.
            </li>
            <li>Shopify emails you a link to the .zip file. Download it; do not unzip it.</li>
          </ol>
        </section>

        <section aria-labelledby="upload-heading" className="space-y-3">
          <h2 id="upload-heading" className="font-semibold text-slate-900">
            2. Give us the .zip
          </h2>
          <ThemeDropZone
            file={file}
            disabled={uploading}
            error={fileError}
            onFile={(picked, problem) => {
              setFile(picked);
              setFileError(problem);
            }}
          />
        </section>

        {needsConfirm ? (
          <label
            htmlFor={confirmId}
            className="flex items-start gap-3 rounded-xl border border-amber-200 bg-amber-50 p-4 text-sm text-amber-950"
          >
            <input
              id={confirmId}
              type="checkbox"
              checked={confirmed}
              disabled={uploading}
              onChange={(event) => setConfirmed(event.target.checked)}
              className="mt-0.5 size-4 accent-brand-600"
            />
            <span>
              I understand that {preview.data?.source_store ?? 'my store'} will be connected to the {targetEdition} key{' '}
              <span className="font-mono">{target.api_key}</span>, and that the {sourceEdition} key{' '}
              <span className="font-mono">{source.api_key}</span> will be freed to connect another store.
            </span>
          </label>
        ) : null}

        {targetStore ? (
          <label
            htmlFor={consentId}
            className="flex items-start gap-3 rounded-xl border border-red-200 bg-red-50 p-4 text-sm text-red-950"
          >
            <input
              id={consentId}
              type="checkbox"
              checked={consented}
              disabled={uploading}
              onChange={(event) => setConsented(event.target.checked)}
              className="mt-0.5 size-4 accent-red-600"
            />
            <span>
              <strong className="block">
                The {targetEdition} key <span className="font-mono">{target.api_key}</span> licenses {targetStore}.
              </strong>
              {targetConsentText(targetStore)}
            </span>
          </label>
        ) : null}

        {uploading ? (
          <div className="space-y-1">
            <p id={progressLabelId} className="text-sm text-slate-700">
              {progress < 1 ? `Uploading… ${Math.round(progress * 100)}%` : 'Starting the upgrade…'}
            </p>
            <div
              role="progressbar"
              aria-labelledby={progressLabelId}
              aria-valuemin={0}
              aria-valuemax={100}
              aria-valuenow={Math.round(progress * 100)}
              className="h-2 overflow-hidden rounded-full bg-slate-200"
            >
              <div
                className="h-full bg-brand-600 transition-[width]"
                style={{ width: `${Math.round(progress * 100)}%` }}
              />
            </div>
          </div>
        ) : null}

        <div className="flex flex-wrap gap-2">
          <Button disabled={!ready} onClick={() => file && upload.mutate({ source, target, file })}>
            {uploading ? (
              <Loader2 aria-hidden="true" className="size-4 animate-spin motion-reduce:animate-none" />
            ) : null}
            {isUpgrade ? `Upgrade to ${targetEdition}` : 'Update theme'}
          </Button>
        </div>
      </div>
    );
  }

  return (
    <div className="mx-auto max-w-3xl px-4 py-6 sm:px-6">
      <Link to={paths.myKeys} className="inline-flex items-center gap-1 text-sm text-slate-600 hover:text-slate-900">
        <ArrowLeft aria-hidden="true" className="size-4" />
        My Keys
      </Link>
      <h1 className="mt-2 mb-1 text-2xl font-semibold text-slate-900">{title}</h1>
      <p className="mb-6 text-sm text-slate-600">
        Your settings, content and your own files are carried over; the report says what was kept and what could not be.
      </p>
      {body}
    </div>
  );
}
