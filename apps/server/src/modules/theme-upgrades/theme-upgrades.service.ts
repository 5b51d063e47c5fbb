import { randomBytes } from 'node:crypto';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import {
  THEME_UPGRADE_MESSAGES,
  THEME_UPGRADE_RETENTION_DAYS,
  type ThemeUpgradeReportBody,
  type ThemeUpgradeRun,
  type UpgradableKey,
} from '@keyport/shared/contracts/theme-upgrades';
import { tierFromFlags, tierRank, type Tier } from '@keyport/shared/domain/tiers';
import type { Db } from '../../db/client';
import { isUniqueViolation } from '../../db/pg-errors';
import { AppError, badRequest, conflict, notFound } from '../../http/errors';
import type { StoragePort } from '../../integrations/storage/port';
import type { ConnectService, PreparedConnectionMove } from '../connect/connect.service';
import type { KeysService } from '../keys/keys.service';
import type { ReleasesService } from '../releases/releases.service';
import {
  ThemeUpgradeError,
  readThemeInfo,
  reportToHtml,
  reviewZipPathFor,
  upgradeTheme,
  type KnownRelease,
} from '../../lib/theme-upgrade';
import { isThemeZipError } from '../../lib/theme-zip/errors';
import type { ThemeZipLimits } from '../../lib/theme-zip/scan';
import { readStoredReport } from './report-body';
import { assertReasonableCompression } from './upload-shape';
import * as repo from './theme-upgrades.repo';

export const RUN_NOT_FOUND = 'Theme upgrade not found.';
const DAY_MS = 24 * 60 * 60 * 1000;
/** A run still `running` after this long belongs to a process that died: it no longer blocks its key and store. */
export const STALE_RUN_MS = 15 * 60 * 1000;
const INPUT_ERROR_STATUS: Partial<Record<ThemeUpgradeError['code'], 413 | 422>> = {
  zip_too_large: 413,
  edition_mismatch: 422,
  theme_mismatch: 422,
};

export interface ThemeUpgradesServiceDeps {
  db: Db;
  storage: StoragePort;
  /** The zip limits of release uploads (size, entries, ratio): the merchant's export is held to them. */
  limits: ThemeZipLimits;
  keys: Pick<KeysService, 'requireOwnedKey' | 'listKeys' | 'findOwnedKeyById' | 'listTierChanges'>;
  connect: Pick<ConnectService, 'currentTokenFor' | 'prepareConnectionMove' | 'commitConnectionMove'>;
  releases: Pick<
    ReleasesService,
    'findServedRelease' | 'releaseZipPath' | 'releaseManifest' | 'listUpgradeCandidates' | 'migrationMapsBetween'
  >;
  /** Where the engine writes its output before it is stored (DATA_DIR/tmp). */
  workDir: string;
  now?: () => Date;
}

export interface StartRunInput {
  targetKey: string;
  sourceKey: string;
  moveConnection: boolean;
  /** The uploaded export; the caller removes it. */
  zipPath: string;
}

export interface RunFile {
  stream: Readable;
  contentLength: number;
  filename: string;
}

/**
 * Theme-file upgrades (issue 10): which keys can give theme files, the run itself (engine outside any transaction,
 * output kept 7 days in storage) and the connection move after a successful upgrade to a higher edition. Owns
 * `theme_upgrade_runs`.
 */
export function createThemeUpgradesService(deps: ThemeUpgradesServiceDeps) {
  const { db, storage, keys, connect, releases, limits } = deps;
  const now = deps.now ?? (() => new Date());

  /** Both keys the caller's, target at the same or a higher edition; same key only for an update. */
  async function resolvePair(userId: number, targetKey: string, sourceKey: string) {
    const [target, source] = await Promise.all([
      keys.requireOwnedKey(userId, targetKey),
      keys.requireOwnedKey(userId, sourceKey),
    ]);
    if (tierRank(target.tier) < tierRank(source.tier)) {
      throw badRequest(THEME_UPGRADE_MESSAGES.notHigher, 'target_lower_than_source');
    }
    const release = await releases.findServedRelease(target.tier);
    if (!release) throw notFound(THEME_UPGRADE_MESSAGES.noRelease, 'no_release');
    return { target, source, release, kind: target.tier === source.tier ? ('update' as const) : ('upgrade' as const) };
  }

  function toRun(row: repo.RunRow): ThemeUpgradeRun {
    const expired = row.expiresAt.getTime() <= now().getTime();
    const base = `/theme-upgrades/${row.id}`;
    const files = row.status === 'succeeded' && !expired;
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
    };
  }

  /** The caller's run whose files are still kept: 404 for another user's, 410 after the retention. */
  async function requireLiveRun(userId: number, id: number) {
    const row = await repo.findOwnRun(db, userId, id);
    if (!row) throw notFound(RUN_NOT_FOUND, 'run_not_found');
    if (row.status !== 'succeeded' || !row.outputKey) throw notFound(RUN_NOT_FOUND, 'run_not_found');
    if (row.expiresAt.getTime() <= now().getTime()) {
      throw new AppError(410, THEME_UPGRADE_MESSAGES.expired, 'run_expired');
    }
    return row;
  }

  async function openStored(key: string, filename: string): Promise<RunFile> {
    const stat = await storage.stat(key);
    if (!stat) throw new AppError(410, THEME_UPGRADE_MESSAGES.expired, 'run_expired');
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

    async preview(userId: number, input: { targetKey: string; sourceKey: string }) {
      const { target, source, release, kind } = await resolvePair(userId, input.targetKey, input.sourceKey);
      return {
        source: { key: source.apiKey, edition: source.tier, version: null },
        target: { key: target.apiKey, edition: target.tier, version: release.version },
        kind,
        source_connected: Boolean(source.key.myshopify),
        source_store: source.key.myshopify,
      };
    },

    /**
     * Runs an upgrade: checks both keys, records the run (409 when one of the same key or store is in progress — the
     * partial unique indexes decide), runs the engine outside any transaction, stores output and report, then in one
     * short transaction moves the connection (when asked, for a higher edition) and marks the run succeeded.
     */
    async startRun(userId: number, input: StartRunInput): Promise<ThemeUpgradeRun> {
      const { target, source, release, kind } = await resolvePair(userId, input.targetKey, input.sourceKey);
      const moveConnection = input.moveConnection && kind === 'upgrade';
      const startedAt = now();
      const store = source.key.myshopify?.toLowerCase() ?? null;
      await repo.abandonStaleRuns(
        db,
        { keyIds: [source.id, target.id], store },
        new Date(startedAt.getTime() - STALE_RUN_MS),
      );
      const run = await repo
        .insertRun(db, {
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
          expiresAt: new Date(startedAt.getTime() + THEME_UPGRADE_RETENTION_DAYS * DAY_MS),
        })
        .catch((error: unknown) => {
          if (isUniqueViolation(error)) throw conflict(THEME_UPGRADE_MESSAGES.runInProgress, 'run_in_progress');
          throw error;
        });

      const stamp = `${run.id}-${randomBytes(6).toString('hex')}`;
      const outputKey = `theme-upgrades/${stamp}.zip`;
      const reportHtmlKey = `theme-upgrades/${stamp}.html`;
      const reviewKey = `theme-upgrades/${stamp}-review.zip`;
      const outputPath = path.join(deps.workDir, `theme-upgrade-${stamp}.zip`);
      let stored = false;
      try {
        await assertReasonableCompression(input.zipPath, limits).catch(toInputError);
        const info = await readThemeInfo(input.zipPath, limits).catch(toInputError);
        // The store runs an edition the source key has held: its tier now, or one it had before an upgrade (after a
        // paid LITE → REGULAR upgrade the store still runs the LITE files, and the same key is source and target).
        const held = new Set([
          source.tier,
          ...(await keys.listTierChanges(source.id)).map((change) => change.fromTier),
        ]);
        if (info.edition && !held.has(info.edition)) {
          throw new AppError(422, THEME_UPGRADE_MESSAGES.editionMismatch, 'edition_mismatch');
        }
        const exportEdition = info.edition ?? source.tier;
        // The export is told by its files among the releases of the editions it can be (ADR 039): the one it says,
        // else those its key held; across editions the target's too.
        const editions = [exportEdition, ...(info.edition ? [] : held), ...(kind === 'upgrade' ? [target.tier] : [])];
        const [candidates, targetManifest] = await Promise.all([
          releases.listUpgradeCandidates(editions),
          releases.releaseManifest(release),
        ]);
        const known: KnownRelease[] = candidates.map((row) => ({
          id: row.id,
          edition: row.edition,
          version: row.version,
          themeName: row.themeName,
          manifest: row.manifest,
          zipPath: () => releases.releaseZipPath(row),
        }));
        const move = moveConnection ? await connect.prepareConnectionMove(source, target) : null;
        const token = move?.token ?? (await connect.currentTokenFor(target));
        if (!token) {
          throw badRequest('Authentication token not available. Please generate token first.', 'token_missing');
        }
        await mkdir(deps.workDir, { recursive: true });
        const result = await upgradeTheme({
          merchantZipPath: input.zipPath,
          releases: known,
          target: { zipPath: await releases.releaseZipPath(release), manifest: targetManifest },
          migrationsFrom: (base, statedVersion) =>
            releases.migrationMapsBetween(release.edition, base?.version ?? statedVersion, release.version),
          token,
          outputPath,
          expectedSourceEdition: exportEdition,
          preferredEditions: [...new Set(editions)],
          limits,
        }).catch(toInputError);
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
        const finished = await commitRun(userId, run.id, move, {
          sourceEdition,
          sourceVersion,
          report,
          outputKey,
          reportHtmlKey,
          reviewKey: hasReview ? reviewKey : null,
        });
        return toRun(finished);
      } catch (error) {
        await repo
          .finishRun(db, run.id, { status: 'failed', errorCode: error instanceof AppError ? error.code : 'internal' })
          .catch(() => undefined);
        if (stored) {
          await Promise.all([storage.delete(outputKey), storage.delete(reportHtmlKey), storage.delete(reviewKey)]);
        }
        throw error;
      } finally {
        await rm(outputPath, { force: true });
        await rm(`${outputPath}.html`, { force: true });
        await rm(reviewZipPathFor(outputPath), { force: true });
      }
    },

    async listRuns(userId: number, apiKey?: string): Promise<{ runs: ThemeUpgradeRun[] }> {
      let keyId: number | undefined;
      if (apiKey !== undefined && apiKey.trim() !== '') keyId = (await keys.requireOwnedKey(userId, apiKey)).id;
      const rows = await repo.listOwnRuns(db, userId, keyId);
      return { runs: rows.map(toRun) };
    },

    async getRun(userId: number, id: number): Promise<{ run: ThemeUpgradeRun }> {
      const row = await repo.findOwnRun(db, userId, id);
      if (!row) throw notFound(RUN_NOT_FOUND, 'run_not_found');
      return { run: toRun(row) };
    },

    async openOutput(userId: number, id: number): Promise<RunFile> {
      const row = await requireLiveRun(userId, id);
      return openStored(
        row.outputKey!,
        `theme-upgrade-${row.id}-${row.targetEdition.toLowerCase()}-${row.targetVersion}.zip`,
      );
    },

    async getReport(userId: number, id: number): Promise<ThemeUpgradeReportBody> {
      const row = await requireLiveRun(userId, id);
      return row.report as ThemeUpgradeReportBody;
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

  /** The one short transaction after the engine: the connection move (when prepared) and the run's success. */
  async function commitRun(
    userId: number,
    runId: number,
    move: PreparedConnectionMove | null,
    values: {
      sourceEdition: Tier;
      sourceVersion: string | null;
      report: ThemeUpgradeReportBody;
      outputKey: string;
      reportHtmlKey: string;
      reviewKey: string | null;
    },
  ): Promise<repo.RunRow> {
    return db.transaction(async (tx) => {
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
      if (!row) throw conflict(THEME_UPGRADE_MESSAGES.runInProgress, 'run_in_progress');
      return row;
    });
  }

  /** The engine's refusals of the uploaded zip are the client's: 413 too large, 422 wrong theme, else 400. */
  function toInputError(error: unknown): never {
    if (isThemeZipError(error))
      throw new AppError(error.code === 'zip_too_large' ? 413 : 400, error.message, error.code);
    if (!(error instanceof ThemeUpgradeError)) throw error;
    const status = INPUT_ERROR_STATUS[error.code] ?? 400;
    throw new AppError(status, error.message, error.code);
  }
}
export type ThemeUpgradesService = ReturnType<typeof createThemeUpgradesService>;
