import { randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  THEME_FILE_UPDATE_MESSAGES,
  THEME_FILE_UPDATE_RETENTION_DAYS,
  targetConnectedError,
  type ThemeFileUpdatePhase,
  type ThemeFileUpdateReportBody,
  type ThemeFileUpdateRun,
  type UpgradableKey,
} from '@keyport/shared/contracts/theme-file-updates';
import { tierFromFlags, tierRank, type Tier } from '@keyport/shared/domain/tiers';
import type { Db } from '../../db/client';
import { isUniqueViolation } from '../../db/pg-errors';
import { AppError, badRequest, conflict, notFound } from '../../http/errors';
import type { StoragePort } from '../../integrations/storage/port';
import type { ConnectService, PreparedConnectionMove } from '../connect/connect.service';
import type { Jobs } from '../jobs/jobs.service';
import type { KeysService, OwnedKeyRecord } from '../keys/keys.service';
import type { ReleasesService } from '../releases/releases.service';
import {
  ThemeUpdateError,
  baseThemeName,
  readThemeInfo,
  reportToHtml,
  reviewZipPathFor,
  updateTheme,
  type KnownRelease,
} from '../../lib/theme-update';
import { isThemeZipError } from '../../lib/theme-zip/errors';
import {
  readSettingsText,
  verifyEntryContents,
  withScannedThemeZip,
  type ThemeZipLimits,
} from '../../lib/theme-zip/scan';
import { readStoredReport } from './report-body';
import { assertReasonableCompression } from './upload-shape';
import * as repo from './theme-file-updates.repo';

export const RUN_NOT_FOUND = 'Theme upgrade not found.';
const DAY_MS = 24 * 60 * 60 * 1000;
/**
 * A run made before runs were jobs (no job id) still `running` after this long belongs to a process that died: it no
 * longer blocks its key and store. A job's run is ended when its job is over (`releaseAbandonedRuns`).
 */
export const STALE_RUN_MS = 15 * 60 * 1000;
/**
 * The job kind that runs one theme-file update (payload `{ runId }`), and the recurring clean-up (ADR 041). Stored in
 * `jobs` rows: migration 0019 moved the rows of their former kinds, 'theme-upgrades.run' and 'theme-upgrades.sweep'.
 */
export const THEME_FILE_UPDATE_JOB = 'theme-file-updates.run';
export const THEME_FILE_UPDATE_SWEEP_JOB = 'theme-file-updates.sweep';
/** Runs handled per sweep pass (the next pass takes the rest). */
const SWEEP_BATCH = 200;
/** How often progress within a phase is written (a phase change is written at once). */
const PROGRESS_WRITE_MS = 250;

/** What the run job gets from the engine. */
export interface RunJobContext {
  signal: AbortSignal;
  /** Whether this attempt is the job's last: an unexpected failure then ends the run as failed. */
  lastAttempt: boolean;
  /** Renews the job's claim and records the phase for staff. */
  progress(value: Record<string, unknown>): Promise<void>;
}
const INPUT_ERROR_STATUS: Partial<Record<ThemeUpdateError['code'], 413 | 422>> = {
  zip_too_large: 413,
  edition_mismatch: 422,
  theme_mismatch: 422,
};

export interface ThemeFileUpdatesServiceDeps {
  db: Db;
  storage: StoragePort;
  /** The zip limits of release uploads (size, entries, ratio): the merchant's export is held to them. */
  limits: ThemeZipLimits;
  keys: Pick<KeysService, 'requireOwnedKey' | 'listKeys' | 'findOwnedKeyById' | 'listTierChanges'>;
  connect: Pick<ConnectService, 'currentTokenFor' | 'prepareConnectionMove' | 'commitConnectionMove'>;
  releases: Pick<
    ReleasesService,
    | 'findServedRelease'
    | 'findReleaseByVersion'
    | 'releaseZipPath'
    | 'releaseManifest'
    | 'listUpgradeCandidates'
    | 'migrationMapsBetween'
  >;
  /** Runs are jobs (ADR 041): enqueued with the run, cancelled with it, looked up to end abandoned runs. */
  jobs: Pick<Jobs, 'enqueue' | 'nudge' | 'cancel' | 'find'>;
  /** Where the engine writes its output before it is stored (DATA_DIR/tmp). */
  workDir: string;
  now?: () => Date;
}

export interface StartRunInput {
  targetKey: string;
  sourceKey: string;
  moveConnection: boolean;
  /** The store the customer agreed loses its license (required when the target key licenses another store). */
  consentStore?: string;
  /** The uploaded export; moved into storage (the caller removes what is left). */
  zipPath: string;
}

export interface RunFile {
  stream: Readable;
  contentLength: number;
  filename: string;
}

/**
 * Theme-file updates (issue 10, issue 20): which keys can give theme files, the run — started by the upload, done
 * by a job (ADR 041: engine outside any transaction, phases and progress on the run, cancellable, output kept 7 days
 * in storage and then swept) — and the connection move after a successful upgrade to a higher edition, with the
 * customer's consent when it takes another store's license. Owns `theme_update_runs`.
 */
export function createThemeFileUpdatesService(deps: ThemeFileUpdatesServiceDeps) {
  const { db, storage, keys, connect, releases, limits, jobs } = deps;
  const now = deps.now ?? (() => new Date());

  /** Both keys the caller's, target at the same or a higher edition; same key only for an update. */
  async function resolvePair(userId: number, targetKey: string, sourceKey: string) {
    const [target, source] = await Promise.all([
      keys.requireOwnedKey(userId, targetKey),
      keys.requireOwnedKey(userId, sourceKey),
    ]);
    if (tierRank(target.tier) < tierRank(source.tier)) {
      throw badRequest(THEME_FILE_UPDATE_MESSAGES.notHigher, 'target_lower_than_source');
    }
    const release = await releases.findServedRelease(target.tier);
    if (!release) throw notFound(THEME_FILE_UPDATE_MESSAGES.noRelease, 'no_release');
    return { target, source, release, kind: target.tier === source.tier ? ('update' as const) : ('upgrade' as const) };
  }

  function toRun(row: repo.RunRow): ThemeFileUpdateRun {
    const expired = row.expiresAt.getTime() <= now().getTime() || row.filesDeletedAt !== null;
    const base = `/theme-file-updates/${row.id}`;
    const files = row.status === 'succeeded' && !expired;
    const running = row.status === 'running';
    return {
      id: row.id,
      status: row.status,
      source: { key: row.sourceApiKey, edition: row.sourceEdition, version: row.sourceVersion },
      target: { key: row.targetApiKey, edition: row.targetEdition, version: row.targetVersion },
      report: readStoredReport(row.report),
      download_url: files ? `${base}/theme.zip` : null,
      report_json_url: files ? `${base}/report.json` : null,
      report_html_url: files ? `${base}/report.html` : null,
      review_url: files && row.reviewKey ? `${base}/review.zip` : null,
      created_at: row.createdAt.toISOString(),
      expires_at: row.expiresAt.toISOString(),
      connection_moved: row.connectionMoved,
      phase: running ? row.phase : null,
      progress: running ? { done: row.progressDone, total: row.progressTotal } : null,
      error:
        row.status === 'failed' || row.status === 'cancelled'
          ? { code: row.errorCode ?? 'internal', message: row.errorMessage }
          : null,
      consent_store: row.consentStore,
    };
  }

  /** The caller's run whose files are still kept: 404 for another user's, 410 after the retention. */
  async function requireLiveRun(userId: number, id: number) {
    const row = await repo.findOwnRun(db, userId, id);
    if (!row) throw notFound(RUN_NOT_FOUND, 'run_not_found');
    if (row.status !== 'succeeded' || !row.outputKey) throw notFound(RUN_NOT_FOUND, 'run_not_found');
    if (row.expiresAt.getTime() <= now().getTime() || row.filesDeletedAt !== null) {
      throw new AppError(410, THEME_FILE_UPDATE_MESSAGES.expired, 'run_expired');
    }
    return row;
  }

  async function openStored(key: string, filename: string): Promise<RunFile> {
    const stat = await storage.stat(key);
    if (!stat) throw new AppError(410, THEME_FILE_UPDATE_MESSAGES.expired, 'run_expired');
    return { stream: await storage.createReadStream(key), contentLength: stat.size, filename };
  }

  return {
    /**
     * §7 GET /keys/list_keys_upgrade: the caller's REGULAR keys when they also own a LITE key ('Lite to Regular'), and
     * PRO keys when they also own a LITE or REGULAR key ('Regular to Pro').
     */
    async listUpgradableKeys(userId: number): Promise<{ upgradable_keys: UpgradableKey[]; error: null }> {
      const owned = (await keys.listKeys(userId)).map((key) => ({ key: key.api_key, tier: tierFromFlags(key) }));
      const has = (tier: Tier) => owned.some((key) => key.tier === tier);
      const upgradable: UpgradableKey[] = [];
      for (const key of owned) {
        if (key.tier === 'REGULAR' && has('LITE')) upgradable.push({ key: key.key, upgrade_status: 'Lite to Regular' });
        if (key.tier === 'PRO' && (has('LITE') || has('REGULAR'))) {
          upgradable.push({ key: key.key, upgrade_status: 'Regular to Pro' });
        }
      }
      return { upgradable_keys: upgradable, error: null };
    },

    /**
     * The page before the upload. The source edition is what the store runs: a key upgraded in place (a paid LITE →
     * REGULAR) still runs the edition it had, until a run onto it succeeded since — the run then tells by the files.
     */
    async preview(userId: number, input: { targetKey: string; sourceKey: string }) {
      const { target, source, release, kind } = await resolvePair(userId, input.targetKey, input.sourceKey);
      const runs = source.id === target.id ? await storeRunsEdition(source) : source.tier;
      const shownKind = tierRank(runs) < tierRank(target.tier) ? 'upgrade' : kind;
      return {
        source: { key: source.apiKey, edition: runs, version: null },
        target: { key: target.apiKey, edition: target.tier, version: release.version },
        kind: shownKind,
        source_connected: Boolean(source.key.myshopify),
        source_store: source.key.myshopify,
        target_store: kind === 'upgrade' && otherStore(source, target) ? target.key.myshopify : null,
      };
    },

    /**
     * Starts an upgrade (ADR 041): checks both keys, the consent when the target key licenses another store, and the
     * export's shape (cheap reads of its central directory and theme info: bad input is a 4xx here, not a failed
     * run), stores the export, and records the run with its job in one transaction (409 when one of the same key or
     * store is in progress — the partial unique indexes decide). Answers at once: the job does the rest.
     */
    async startRun(userId: number, input: StartRunInput): Promise<ThemeFileUpdateRun> {
      const { target, source, kind, release } = await resolvePair(userId, input.targetKey, input.sourceKey);
      const moveConnection = input.moveConnection && kind === 'upgrade';
      const store = source.key.myshopify?.toLowerCase() ?? null;
      const consentStore = moveConnection ? requireConsent(source, target, input.consentStore) : null;
      await assertReasonableCompression(input.zipPath, limits).catch(toInputError);
      const info = await readThemeInfo(input.zipPath, limits).catch(toInputError);
      const held = await heldEditions(source);
      if (info.edition && !held.has(info.edition)) {
        throw new AppError(422, THEME_FILE_UPDATE_MESSAGES.editionMismatch, 'edition_mismatch');
      }
      if (info.themeName && release.themeName && baseThemeName(info.themeName) !== baseThemeName(release.themeName)) {
        throw new AppError(
          422,
          `The uploaded theme is ${info.themeName}, not ${release.themeName}; upload the theme your store runs`,
          'theme_mismatch',
        );
      }
      await releaseAbandonedRuns({ keyIds: [source.id, target.id], store });
      const startedAt = now();
      const uploadKey = `theme-file-updates/upload-${randomBytes(12).toString('hex')}.zip`;
      await storage.put(uploadKey, input.zipPath);
      try {
        const run = await db
          .transaction(async (tx) => {
            const row = await repo.insertRun(tx, {
              userId,
              sourceKeyId: source.id,
              targetKeyId: target.id,
              sourceApiKey: source.apiKey,
              targetApiKey: target.apiKey,
              sourceEdition: source.tier,
              targetEdition: target.tier,
              targetVersion: release.version,
              targetReleaseId: release.id,
              store,
              moveConnection,
              consentStore,
              uploadKey,
              expiresAt: new Date(startedAt.getTime() + THEME_FILE_UPDATE_RETENTION_DAYS * DAY_MS),
            });
            const jobId = await jobs.enqueue(tx, THEME_FILE_UPDATE_JOB, { runId: row.id });
            return repo.setJob(tx, row.id, jobId);
          })
          .catch((error: unknown) => {
            if (isUniqueViolation(error)) throw conflict(THEME_FILE_UPDATE_MESSAGES.runInProgress, 'run_in_progress');
            throw error;
          });
        jobs.nudge();
        return toRun(run);
      } catch (error) {
        await storage.delete(uploadKey);
        throw error;
      }
    },

    /**
     * The job (ADR 041): runs the engine on the stored export outside any transaction, phase by phase with its
     * progress on the run, then stores output and report and, in one short transaction, moves the connection (when
     * asked) and marks the run succeeded — only while it is still running: a cancelled run writes nothing. Safe to run
     * again for the same run (a worker that died mid-run): each attempt works on its own files.
     */
    async executeRun(runId: number, context: RunJobContext): Promise<void> {
      const row = await repo.findRun(db, runId);
      if (!row || row.status !== 'running') return;
      const stamp = `${row.id}-${randomBytes(6).toString('hex')}`;
      const outputKey = `theme-file-updates/${stamp}.zip`;
      const reportHtmlKey = `theme-file-updates/${stamp}.html`;
      const reviewKey = `theme-file-updates/${stamp}-review.zip`;
      const inputPath = path.join(deps.workDir, `theme-file-update-${stamp}-export.zip`);
      const outputPath = path.join(deps.workDir, `theme-file-update-${stamp}.zip`);
      const progress = progressWriter(row.id, context);
      let stored = false;
      try {
        await progress.phase('upload');
        const [target, source] = await Promise.all([
          keys.requireOwnedKey(row.userId, row.targetApiKey),
          keys.requireOwnedKey(row.userId, row.sourceApiKey),
        ]);
        const release = await releases.findReleaseByVersion(row.targetEdition, row.targetVersion);
        if (!release) throw notFound(THEME_FILE_UPDATE_MESSAGES.noRelease, 'no_release');
        if (!row.uploadKey) throw badRequest('The uploaded theme is no longer kept. Upload it again.', 'upload_gone');
        await mkdir(deps.workDir, { recursive: true });
        await pipeline(await storage.createReadStream(row.uploadKey), createWriteStream(inputPath));
        const info = await readThemeInfo(inputPath, limits).catch(toInputError);
        const held = await heldEditions(source);
        const exportEdition = info.edition ?? source.tier;
        const kind = target.tier === source.tier ? 'update' : 'upgrade';
        // The export is told by its files among the releases of the editions it can be (ADR 039): the one it says,
        // else those its key held; across editions the target's too.
        const editions = [exportEdition, ...(info.edition ? [] : held), ...(kind === 'upgrade' ? [target.tier] : [])];
        const [candidates, targetManifest] = await Promise.all([
          releases.listUpgradeCandidates(editions),
          releases.releaseManifest(release),
        ]);
        const known: KnownRelease[] = candidates.map((candidate) => ({
          id: candidate.id,
          edition: candidate.edition,
          version: candidate.version,
          themeName: candidate.themeName,
          manifest: candidate.manifest,
          zipPath: () => releases.releaseZipPath(candidate),
        }));
        let move: PreparedConnectionMove | null = null;
        if (row.moveConnection) {
          // The target may have been connected to a store since the upload: never without the consent naming it.
          requireConsent(source, target, row.consentStore ?? undefined);
          move = await connect.prepareConnectionMove(source, target);
        }
        const token = move?.token ?? (await connect.currentTokenFor(target));
        if (!token) {
          throw badRequest('Authentication token not available. Please generate token first.', 'token_missing');
        }
        await progress.phase('detect');
        const result = await updateTheme({
          merchantZipPath: inputPath,
          releases: known,
          target: { zipPath: await releases.releaseZipPath(release), manifest: targetManifest },
          migrationsFrom: (base, statedVersion) =>
            releases.migrationMapsBetween(release.edition, base?.version ?? statedVersion, release.version),
          token,
          outputPath,
          expectedSourceEdition: exportEdition,
          preferredEditions: [...new Set(editions)],
          limits,
          signal: context.signal,
          onProgress: ({ phase, done, total }) => progress.report(phase === 'write' ? 'merge' : phase, done, total),
        }).catch(toInputError);
        await progress.phase('check');
        await checkOutput(outputPath, token, (done, total) => progress.report('check', done, total));
        await progress.phase('write');
        const report = result.report;
        const sourceEdition = report.detection.release?.edition ?? exportEdition;
        const sourceVersion = report.detection.release?.version ?? info.version;
        const htmlPath = `${outputPath}.html`;
        // The page names what the export is (by its files) and what it becomes, not the versions the themes state.
        const sides = {
          source: { ...result.source, edition: sourceEdition, version: sourceVersion },
          target: { ...result.target, edition: release.edition, version: release.version },
        };
        await writeFile(htmlPath, reportToHtml(report, sides), 'utf8');
        stored = true;
        await storage.put(outputKey, outputPath);
        await storage.put(reportHtmlKey, htmlPath);
        const hasReview = result.reviewFiles.length > 0;
        if (hasReview) await storage.put(reviewKey, reviewZipPathFor(outputPath));
        context.signal.throwIfAborted();
        const finished = await commitRun(row.userId, row.id, move, {
          sourceEdition,
          sourceVersion,
          report,
          outputKey,
          reportHtmlKey,
          reviewKey: hasReview ? reviewKey : null,
        });
        if (!finished) {
          // Cancelled (or ended by another worker) meanwhile: this attempt's files are nobody's.
          await deleteStored(outputKey, reportHtmlKey, reviewKey);
          return;
        }
        await storage.delete(row.uploadKey);
        await repo.clearUpload(db, row.id);
      } catch (error) {
        if (stored) await deleteStored(outputKey, reportHtmlKey, reviewKey);
        if (context.signal.aborted) throw error; // cancelled, stopping or claim lost: the engine decides
        if (error instanceof AppError || context.lastAttempt) {
          // A refusal (the export, a key, the token) will not mend by trying again: the run fails with its reason.
          await failRun(row, error);
          return;
        }
        throw error;
      } finally {
        await progress.flush();
        await Promise.all(
          [inputPath, outputPath, `${outputPath}.html`, reviewZipPathFor(outputPath)].map((file) =>
            rm(file, { force: true }),
          ),
        );
      }
    },

    /** The owner cancels a run in progress: it ends at once (nothing written, no connection moved); its job stops. */
    async cancelRun(userId: number, id: number): Promise<{ run: ThemeFileUpdateRun }> {
      const row = await repo.findOwnRun(db, userId, id);
      if (!row) throw notFound(RUN_NOT_FOUND, 'run_not_found');
      const cancelled = await repo.finishRun(db, row.id, {
        status: 'cancelled',
        errorCode: 'cancelled',
        errorMessage: THEME_FILE_UPDATE_MESSAGES.cancelled,
      });
      if (!cancelled) throw conflict(THEME_FILE_UPDATE_MESSAGES.runFinished, 'run_finished');
      if (row.jobId !== null) await jobs.cancel(row.jobId);
      if (row.uploadKey) {
        await storage.delete(row.uploadKey);
        await repo.clearUpload(db, row.id);
      }
      return { run: toRun(cancelled) };
    },

    /**
     * The recurring clean-up (ADR 041): deletes the stored files of runs past their retention, the uploads of runs
     * that ended, and ends runs whose job is over without them (a job given up after its workers kept dying).
     */
    async sweepExpired(at: Date): Promise<{ expired: number; uploads: number; abandoned: number }> {
      let expired = 0;
      for (const run of await repo.listExpiredWithFiles(db, at, SWEEP_BATCH)) {
        await deleteStored(run.outputKey, run.reportHtmlKey, run.reviewKey, run.uploadKey);
        await repo.markFilesDeleted(db, run.id, at);
        expired += 1;
      }
      let uploads = 0;
      for (const run of await repo.listEndedWithUpload(db, SWEEP_BATCH)) {
        if (run.uploadKey) await storage.delete(run.uploadKey);
        await repo.clearUpload(db, run.id);
        uploads += 1;
      }
      const abandoned = await releaseAbandonedRuns(null);
      return { expired, uploads, abandoned };
    },

    async listRuns(userId: number, apiKey?: string): Promise<{ runs: ThemeFileUpdateRun[] }> {
      let keyId: number | undefined;
      if (apiKey !== undefined && apiKey.trim() !== '') keyId = (await keys.requireOwnedKey(userId, apiKey)).id;
      const rows = await repo.listOwnRuns(db, userId, keyId);
      return { runs: rows.map(toRun) };
    },

    async getRun(userId: number, id: number): Promise<{ run: ThemeFileUpdateRun }> {
      const row = await repo.findOwnRun(db, userId, id);
      if (!row) throw notFound(RUN_NOT_FOUND, 'run_not_found');
      // A run whose job is over without ending it (given up) is ended now, not left polled for ever.
      if (row.status === 'running' && (await endIfAbandoned(row))) {
        const ended = await repo.findOwnRun(db, userId, id);
        if (ended) return { run: toRun(ended) };
      }
      return { run: toRun(row) };
    },

    // The merchant's download names keep `theme-upgrade-<id>-…` (what they got before the rename: ADR 044).
    async openOutput(userId: number, id: number): Promise<RunFile> {
      const row = await requireLiveRun(userId, id);
      return openStored(
        row.outputKey!,
        `theme-upgrade-${row.id}-${row.targetEdition.toLowerCase()}-${row.targetVersion}.zip`,
      );
    },

    async getReport(userId: number, id: number): Promise<ThemeFileUpdateReportBody> {
      const row = await requireLiveRun(userId, id);
      return row.report as ThemeFileUpdateReportBody;
    },

    async openReview(userId: number, id: number): Promise<RunFile> {
      const row = await requireLiveRun(userId, id);
      if (!row.reviewKey) throw notFound('This upgrade has no files for review.', 'no_review_files');
      return openStored(row.reviewKey, `theme-upgrade-${row.id}-your-edited-files.zip`);
    },

    async openReportHtml(userId: number, id: number): Promise<RunFile> {
      const row = await requireLiveRun(userId, id);
      if (!row.reportHtmlKey) throw notFound(RUN_NOT_FOUND, 'run_not_found');
      return openStored(row.reportHtmlKey, `theme-upgrade-${row.id}-report.html`);
    },
  };

  /**
   * The one short transaction after the engine: the connection move (when prepared) and the run's success. Null when
   * the run is no longer running (cancelled meanwhile): the move is rolled back with it.
   */
  async function commitRun(
    userId: number,
    runId: number,
    move: PreparedConnectionMove | null,
    values: {
      sourceEdition: Tier;
      sourceVersion: string | null;
      report: ThemeFileUpdateReportBody;
      outputKey: string;
      reportHtmlKey: string;
      reviewKey: string | null;
    },
  ): Promise<repo.RunRow | null> {
    const notRunning = new Error('run no longer running');
    return db
      .transaction(async (tx) => {
        if (move) await connect.commitConnectionMove(userId, move, tx);
        const row = await repo.finishRun(tx, runId, {
          status: 'succeeded',
          sourceEdition: values.sourceEdition,
          sourceVersion: values.sourceVersion,
          report: values.report,
          outputKey: values.outputKey,
          reportHtmlKey: values.reportHtmlKey,
          reviewKey: values.reviewKey,
          connectionMoved: move !== null,
        });
        if (!row) throw notRunning;
        return row;
      })
      .catch((error: unknown) => {
        if (error === notRunning) return null;
        throw error;
      });
  }

  /** The target key licenses a store other than the one the source's connection would bring to it. */
  function otherStore(source: OwnedKeyRecord, target: OwnedKeyRecord): string | null {
    const sourceStore = source.key.myshopify?.toLowerCase() ?? null;
    const targetStore = target.key.myshopify?.toLowerCase() ?? null;
    if (source.id === target.id || !sourceStore || !targetStore || targetStore === sourceStore) return null;
    return targetStore;
  }

  /**
   * ADR 041: moving the source's store to a target key that licenses another store takes that store's license: only
   * with the customer's consent naming it (409 `target_connected` otherwise). Answers the consented store, or null
   * when none is needed.
   */
  function requireConsent(source: OwnedKeyRecord, target: OwnedKeyRecord, consent: string | undefined) {
    const store = otherStore(source, target);
    if (!store) return null;
    if (consent?.trim().toLowerCase() !== store) {
      throw new AppError(409, targetConnectedError(target.key.myshopify ?? store), 'target_connected');
    }
    return store;
  }

  /** The edition a key's store likely runs: the one before its last tier change, unless a run onto it succeeded since. */
  async function storeRunsEdition(key: OwnedKeyRecord): Promise<Tier> {
    const [changes, lastRun] = await Promise.all([
      keys.listTierChanges(key.id),
      repo.findLatestSucceededOnto(db, key.id),
    ]);
    const last = changes.at(-1);
    if (!last || (lastRun && lastRun.createdAt.getTime() >= last.createdAt.getTime())) return key.tier;
    return last.fromTier;
  }

  /** The editions the source key has held: its tier now, and those it had before an upgrade. */
  async function heldEditions(source: OwnedKeyRecord): Promise<Set<Tier>> {
    // After a paid LITE → REGULAR upgrade the store still runs the LITE files, and the same key is source and target.
    return new Set([source.tier, ...(await keys.listTierChanges(source.id)).map((change) => change.fromTier)]);
  }

  /**
   * Ends runs still `running` whose job is over (given up after its workers kept dying, or gone): they must not block
   * their key and store. With a scope, only those of these keys or this store. Answers how many it ended.
   */
  async function releaseAbandonedRuns(scope: { keyIds: number[]; store: string | null } | null): Promise<number> {
    let ended = 0;
    for (const run of await repo.listRunning(db, scope)) if (await endIfAbandoned(run)) ended += 1;
    return ended;
  }

  /** Ends one running run as `failed`/`abandoned` when its job is over (or, made before jobs, it is stale). */
  async function endIfAbandoned(run: repo.RunRow): Promise<boolean> {
    const job = run.jobId === null ? null : await jobs.find(run.jobId);
    const over =
      run.jobId === null
        ? run.createdAt.getTime() < now().getTime() - STALE_RUN_MS
        : !job || job.status === 'done' || job.status === 'dead' || job.status === 'cancelled';
    if (!over) return false;
    const failed = await repo.finishRun(db, run.id, {
      status: 'failed',
      errorCode: 'abandoned',
      errorMessage: THEME_FILE_UPDATE_MESSAGES.internalFailure,
    });
    return failed !== null;
  }

  /** Ends a run as failed with the refusal's reason (an internal error's is not shown), and drops its upload. */
  async function failRun(row: repo.RunRow, error: unknown) {
    const refusal = error instanceof AppError;
    await repo.finishRun(db, row.id, {
      status: 'failed',
      errorCode: refusal ? error.code : 'internal',
      errorMessage: refusal ? error.message : THEME_FILE_UPDATE_MESSAGES.internalFailure,
    });
    if (row.uploadKey) {
      await storage.delete(row.uploadKey);
      await repo.clearUpload(db, row.id);
    }
  }

  async function deleteStored(...keysToDelete: (string | null)[]) {
    await Promise.all(keysToDelete.filter((key) => key !== null).map((key) => storage.delete(key)));
  }

  /**
   * The run's phase and progress on its row. A phase change is written at once (and renews the job's claim); counts
   * within a phase at most every PROGRESS_WRITE_MS. A write that finds the run no longer running (cancelled) stops
   * the job at its next step.
   */
  function progressWriter(runId: number, context: RunJobContext) {
    let current: ThemeFileUpdatePhase = 'queued';
    let lastWrite = 0;
    let chain: Promise<void> = Promise.resolve();
    let ended = false;
    /** Queued in order; a new phase is also told to the engine (the job's progress, and its claim renewed). */
    const write = (phase: ThemeFileUpdatePhase, done: number, total: number, announce: boolean) => {
      chain = chain.then(async () => {
        if (ended) return;
        const still = await repo.setProgress(db, runId, phase, done, total).catch(() => true);
        if (!still) ended = true;
        else if (announce) await context.progress({ phase }).catch(() => undefined);
      });
      return chain;
    };
    const check = () => {
      if (ended) throw new AppError(409, THEME_FILE_UPDATE_MESSAGES.cancelled, 'cancelled');
      context.signal.throwIfAborted();
    };
    return {
      async phase(phase: ThemeFileUpdatePhase) {
        check();
        current = phase;
        lastWrite = Date.now();
        await write(phase, 0, 0, true);
        check();
      },
      report(phase: ThemeFileUpdatePhase, done: number, total: number) {
        check();
        const announce = phase !== current;
        if (!announce && Date.now() - lastWrite < PROGRESS_WRITE_MS && done < total) return;
        current = phase;
        lastWrite = Date.now();
        void write(phase, done, total, announce);
      },
      flush: () => chain,
    };
  }

  /** The check phase: the new zip reads back whole (every entry's size and CRC) and carries the token. */
  async function checkOutput(outputPath: string, token: string, report: (done: number, total: number) => void) {
    await withScannedThemeZip(outputPath, limits, async (scan, zipfile) => {
      const total = scan.entries.length;
      for (let index = 0; index < total; index += 100) {
        await verifyEntryContents(zipfile, scan.entries.slice(index, index + 100));
        report(Math.min(total, index + 100), total);
      }
      const settings = await readSettingsText(zipfile, scan.settingsData);
      if (!settings?.includes(token)) throw new Error('The upgraded theme does not carry the license token.');
    });
  }

  /** The engine's refusals of the uploaded zip are the client's: 413 too large, 422 wrong theme, else 400. */
  function toInputError(error: unknown): never {
    if (isThemeZipError(error))
      throw new AppError(error.code === 'zip_too_large' ? 413 : 400, error.message, error.code);
    if (!(error instanceof ThemeUpdateError)) throw error;
    const status = INPUT_ERROR_STATUS[error.code] ?? 400;
    throw new AppError(status, error.message, error.code);
  }
}
export type ThemeFileUpdatesService = ReturnType<typeof createThemeFileUpdatesService>;
