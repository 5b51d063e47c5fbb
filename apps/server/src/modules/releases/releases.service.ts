import { createHash, randomBytes } from 'node:crypto';
import { rm } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import type { ThemeTokenClaims } from '@keyport/shared/contracts/connect';
import { DOWNLOAD_MESSAGES, type Release, type StaffRelease } from '@keyport/shared/contracts/releases';
import type { Tier } from '@keyport/shared/domain/tiers';
import type { Db } from '../../db/client';
import { AppError, badRequest, conflict, forbidden, notFound } from '../../http/errors';
import { OWNED_KEY_NOT_FOUND } from '@keyport/shared/contracts/keys';
import type { RateLimiter } from '../../http/rate-limit';
import type { StoragePort } from '../../integrations/storage/port';
import type { AuditService } from '../audit/audit.service';
import type { KeysService, OwnedKey } from '../keys/keys.service';
import type { DownloadLinkClaims, DownloadLinks, LinkProblem, SignedLinkQuery } from './download-link';
import { createPreparedZipCache } from '../../lib/theme-zip/prepared-zip-cache';
import { computeReleaseManifest, type ReleaseManifest } from './release-manifest';
import { INVALID_MIGRATION_MAP } from './release-upload';
import type { MigrationMap } from '@keyport/shared/contracts/migration-map';
import { checkMigrationMap, readThemeSchema } from '../../lib/theme-update';
import { compareReleaseVersions, isReleaseVersion, pickLatestRelease } from './release-version';
import * as repo from './releases.repo';
import type { ServedReleases } from './served-releases.service';
import type { CheckinEvidence } from './releases.repo';
import { repackThemeAtRoot } from '../../lib/theme-zip/repack';
import {
  DEFAULT_THEME_ZIP_LIMITS,
  inspectThemeZip,
  tokenizePreparedThemeZip,
  type ThemeZipLimits,
} from '../../lib/theme-zip/theme-zip';
import { isThemeZipError } from '../../lib/theme-zip/errors';

export const LINK_EXPIRED = 'This download link has expired. Please try again.';
export const RELEASE_NOT_FOUND = 'This release no longer exists.';
export const LINK_FOR_ANOTHER_KEY = 'This download link belongs to another license key.';
export const WRONG_EDITION = 'This release is for another edition than your license.';

/** A zip ready to stream: its exact length and the attachment name. */
export interface ReleaseDownload {
  stream: Readable;
  contentLength: number;
  filename: string;
}

/** The stored zip behind a signed link. */
export interface SignedDownload {
  filename: string;
  size: number;
  /** A strong ETag: a stored release zip never changes (a new upload gets a new storage key). */
  etag: string;
  /** Counts a download against the key's allowance (429 past it) and opens the zip, or a byte range of it. */
  open(range?: { start: number; end: number }): Promise<Readable>;
}

export interface PublishReleaseInput {
  edition: Tier;
  version: string;
  notes: string;
  /** The uploaded zip; moved into storage on success. The caller removes it otherwise. */
  zipPath: string;
  /** The staff member; null for the demo releases the seed publishes (the system). */
  createdBy: number | null;
  /** Why it is published: the audit row's reason. */
  reason: string;
  /** What this version renamed since the previous one; checked against the zip's files (400 when a name is not in it). */
  migrationMap?: MigrationMap | null;
}

/** A release a merchant's export may have started from, with its manifest (theme-file updates detect by it). */
export type UpgradeCandidate = repo.ReleaseRow & { manifest: ReleaseManifest };

export interface ReleasesServiceDeps {
  db: Db;
  storage: StoragePort;
  links: DownloadLinks;
  /** Owner-scoped key look-ups (modules/keys owns license_keys). */
  keys: Pick<KeysService, 'requireOwnedKey' | 'findOwnedKeyById'>;
  audit: Pick<AuditService, 'record'>;
  /**
   * Checks a theme auth token's signature (modules/connect). Whether it is still its key's current token is checked
   * here, in the same query that checks the caller owns the key (one query less on every download).
   */
  themeTokens: {
    verifySignature(token: string): Promise<ThemeTokenClaims | null>;
    /** The token for the key's tier now (re-signed when the key was upgraded since it was issued). */
    tokenForTier(token: string, claims: ThemeTokenClaims, tier: Tier): Promise<string>;
  };
  /** Downloads that stream, per user (or per key for the public signed link). */
  downloadLimit: RateLimiter;
  /**
   * Covered license check-ins of an edition as evidence of which stores run which release (the licenses module owns
   * them; a query this module unions with its downloads, ADR 029).
   */
  checkinEvidence: (edition: Tier) => CheckinEvidence;
  /** Which release each edition's customers get (built before the licenses service, which reads it too). */
  served: ServedReleases;
  maxZipBytes: number;
}

/** Releases per edition, their download links and the three download routes of §7. */
export function createReleasesService(deps: ReleasesServiceDeps) {
  const { db, storage, links, keys, audit, themeTokens, downloadLimit } = deps;
  const limits: ThemeZipLimits = { ...DEFAULT_THEME_ZIP_LIMITS, maxBytes: deps.maxZipBytes };
  const preparedZips = createPreparedZipCache({ max: 16, limits });

  /**
   * The release a link names, when `keyId` (the link's key, or the token's) is the caller's key, the link was made for
   * that key and the release is of its edition.
   */
  async function resolveOwnRelease(userId: number, keyId: number, link: DownloadLinkClaims, token?: ThemeTokenClaims) {
    // The two reads are independent: run them side by side (one round trip of latency on every download).
    const [key, release] = await Promise.all([
      keys.findOwnedKeyById(userId, keyId),
      repo.findRelease(db, link.releaseId),
    ]);
    if (!key) throw notFound(OWNED_KEY_NOT_FOUND, 'key_not_found');
    // A token counts only while it is its key's current one (a newer token or a disconnect makes it stale).
    // The version only: an upgrade changes the tier, never the token's validity (ADR 014).
    if (token && key.tokenVersion !== token.ver) {
      throw forbidden(DOWNLOAD_MESSAGES.tokenMissing);
    }
    if (keyId !== link.keyId) throw forbidden(LINK_FOR_ANOTHER_KEY);
    // The caller owns the key now, but the link was made for its owner then: it died when the key changed hands.
    if (link.userId !== userId) throw linkExpired();
    if (!release) throw notFound(RELEASE_NOT_FOUND);
    if (release.edition !== key.tier) throw forbidden(WRONG_EDITION);
    return { key, release };
  }

  /** The release an edition's customers get: the one staff made current, else the newest version. */
  const { findServedRelease, isOlderVersion } = deps.served;

  /** Records which key took which release, and the store the key is connected to (issue 12). */
  function recordDownload(
    key: Pick<OwnedKey, 'id' | 'store'>,
    userId: number,
    release: repo.ReleaseRow,
    via: repo.NewReleaseDownload['via'],
  ) {
    return repo.insertReleaseDownload(db, {
      releaseId: release.id,
      edition: release.edition,
      version: release.version,
      keyId: key.id,
      userId,
      store: key.store,
      via,
    });
  }

  async function toStaffRelease(edition: Tier, release: repo.ReleaseRow): Promise<StaffRelease> {
    const [served, stores] = await Promise.all([
      findServedRelease(edition),
      repo.countStoresPerRelease(db, edition, deps.checkinEvidence(edition)),
    ]);
    return staffRelease(release, served?.id ?? null, stores);
  }

  /** Moves a checked zip into storage and records the release (409 when the version appeared meanwhile). */
  async function storeRelease(input: PublishReleaseInput, zipPath: string, themeName: string | null) {
    const manifest = await computeReleaseManifest(zipPath, limits).catch(toUploadError);
    const storageKey = `${input.edition.toLowerCase()}/${input.version}-${randomBytes(6).toString('hex')}.zip`;
    const { size } = await storage.put(storageKey, zipPath);
    const row = await db
      .transaction(async (tx) => {
        const inserted = await repo.insertRelease(tx, {
          edition: input.edition,
          version: input.version,
          notes: input.notes,
          themeName,
          storageKey,
          sizeBytes: size,
          createdBy: input.createdBy,
          manifest,
          migrationMap: input.migrationMap ?? null,
        });
        if (inserted) {
          await audit.record(tx, {
            actor: input.createdBy === null ? { type: 'system' } : { type: 'staff', id: input.createdBy },
            action: 'release.published',
            object: { type: 'release', id: inserted.id },
            reason: input.reason,
            data: {
              edition: inserted.edition,
              version: inserted.version,
              size_bytes: inserted.sizeBytes,
              migration_map: inserted.migrationMap !== null,
            },
          });
        }
        return inserted;
      })
      .catch(async (error: unknown) => {
        await storage.delete(storageKey);
        throw error;
      });
    if (!row) {
      // Someone published the same version meanwhile.
      await storage.delete(storageKey);
      throw versionExists(input);
    }
    return row;
  }

  /** Every new name of the map must exist in the release's files (400 `invalid_migration_map` naming the first). */
  async function assertMigrationMapFits(map: MigrationMap, zipPath: string): Promise<void> {
    const schema = await readThemeSchema(zipPath, limits).catch(toUploadError);
    const problem = checkMigrationMap(map, schema);
    if (problem !== null)
      throw badRequest(`The migration map does not fit this release: ${problem}`, INVALID_MIGRATION_MAP);
  }

  /** The release's manifest, computed and saved when it was stored before manifests existed. */
  async function releaseManifest(release: repo.ReleaseRow): Promise<ReleaseManifest> {
    if (release.manifest) return release.manifest;
    const manifest = await computeReleaseManifest(await storage.localPath(release.storageKey), limits);
    await repo.setReleaseManifest(db, release.id, manifest);
    return manifest;
  }

  async function openStoredZip(release: repo.ReleaseRow): Promise<ReleaseDownload> {
    const stored = await storage.stat(release.storageKey);
    if (!stored) throw notFound(RELEASE_NOT_FOUND);
    return {
      stream: await storage.createReadStream(release.storageKey),
      contentLength: stored.size,
      filename: releaseFilename(release),
    };
  }

  return {
    isOlderVersion,

    /**
     * Validates a theme zip and makes it the edition's release `version`: 400 with the zip problem, 413 when too
     * large, 409 when the version exists.
     */
    async publishRelease(input: PublishReleaseInput): Promise<repo.ReleaseRow> {
      if (await repo.findReleaseByVersion(db, input.edition, input.version)) throw versionExists(input);
      let info = await inspectThemeZip(input.zipPath, limits).catch(toUploadError);
      // A theme in one top-level folder is moved to the zip root once, here: every download then serves it as
      // Shopify's theme upload expects.
      const repackedPath = info.prefix === '' ? null : `${input.zipPath}.root.zip`;
      try {
        if (repackedPath) {
          await repackThemeAtRoot(input.zipPath, repackedPath, limits).catch(toUploadError);
          info = await inspectThemeZip(repackedPath, limits, { verifyContents: false }).catch(toUploadError);
        }
        if (input.migrationMap) await assertMigrationMapFits(input.migrationMap, repackedPath ?? input.zipPath);
        return await storeRelease(input, repackedPath ?? input.zipPath, info.themeName);
      } finally {
        if (repackedPath) await rm(repackedPath, { force: true });
      }
    },

    hasRelease: (edition: Tier) => repo.hasEditionRelease(db, edition),

    /** The release an edition's customers get (the one staff made current, else the newest version), or null. */
    findServedRelease,

    /**
     * A demo release the seed published before releases had migration maps gets the seed's map (only a release the
     * system published, only while it has none).
     */
    async attachSeedMigrationMap(release: repo.ReleaseRow, map: MigrationMap): Promise<void> {
      if (release.createdBy === null && release.migrationMap === null) {
        await repo.setSeedMigrationMap(db, release.id, map);
      }
    },

    /** The release of an edition and version, or null. */
    async findReleaseByVersion(edition: Tier, version: string): Promise<repo.ReleaseRow | null> {
      const rows = await repo.listEditionReleases(db, edition);
      return rows.find((row) => row.version === version) ?? null;
    },

    /** A local file with the release's zip (the storage port's random-access copy). */
    releaseZipPath: (release: repo.ReleaseRow) => storage.localPath(release.storageKey),

    /**
     * The release's per-file sha256 manifest; a release stored before manifests existed gets it computed from its
     * stored zip now, and saved (backfill on first read).
     */
    releaseManifest,

    /**
     * The releases of these editions a merchant's export may have started from, each with its manifest, newest
     * version first (theme-file updates detect the export's release among them).
     */
    async listUpgradeCandidates(editions: readonly Tier[]): Promise<UpgradeCandidate[]> {
      const rows = (
        await Promise.all([...new Set(editions)].map((edition) => repo.listEditionReleases(db, edition)))
      ).flat();
      const sorted = rows.sort((a, b) => compareVersionsLeniently(b.version, a.version) || b.id - a.id);
      const candidates: UpgradeCandidate[] = [];
      for (const row of sorted) candidates.push({ ...row, manifest: await releaseManifest(row) });
      return candidates;
    },

    /**
     * The migration maps of an edition's releases after `fromVersion` (exclusive; null: all) up to `toVersion`
     * (inclusive), oldest first: what to rename to move a theme of `fromVersion` to `toVersion`.
     */
    async migrationMapsBetween(edition: Tier, fromVersion: string | null, toVersion: string): Promise<MigrationMap[]> {
      const rows = await repo.listEditionReleases(db, edition);
      const valid = (version: string | null): version is string => version !== null && isReleaseVersion(version);
      return rows
        .filter((row) => row.migrationMap !== null && valid(row.version) && valid(toVersion))
        .filter((row) => compareReleaseVersions(row.version, toVersion) <= 0)
        .filter((row) => !valid(fromVersion) || compareReleaseVersions(row.version, fromVersion) > 0)
        .sort((a, b) => compareReleaseVersions(a.version, b.version))
        .map((row) => row.migrationMap!);
    },

    /** §7 POST /staff/get-releases: the newest release of the caller's key's edition, with a signed link. */
    async getReleaseInfo(userId: number, apiKey: string): Promise<{ version: string; download_link: string }> {
      const key = await keys.requireOwnedKey(userId, apiKey);
      const release = await findServedRelease(key.tier);
      if (!release) throw notFound(DOWNLOAD_MESSAGES.versionInfoFailed);
      return { version: release.version, download_link: links.create(release.id, key.id, userId) };
    },

    /**
     * GET or HEAD of a signed link: the signature is the credential, while the user it names still owns its key.
     * Describes the stored zip; nothing is counted or opened until `open` (HEAD never opens it).
     */
    async findSignedDownload(query: SignedLinkQuery): Promise<SignedDownload> {
      const check = links.checkQuery(query);
      if (!check.ok) throw linkExpired();
      const { claims } = check;
      const [key, release] = await Promise.all([
        keys.findOwnedKeyById(claims.userId, claims.keyId),
        repo.findRelease(db, claims.releaseId),
      ]);
      if (!key) throw linkExpired();
      if (!release) throw notFound(RELEASE_NOT_FOUND);
      const stored = await storage.stat(release.storageKey);
      if (!stored) throw notFound(RELEASE_NOT_FOUND);
      return {
        filename: releaseFilename(release),
        size: stored.size,
        etag: storedZipEtag(release.storageKey, stored.size),
        async open(range) {
          await downloadLimit.hit(`download-key:${claims.keyId}`);
          // A resumed download (a range past the first byte) is the same download: recorded once.
          if (!range || range.start === 0) await recordDownload(key, claims.userId, release, 'link');
          return storage.createReadStream(release.storageKey, range);
        },
      };
    },

    /**
     * §7 POST /api/download-with-token: the release behind one of our own links, with the token written into
     * config/settings_data.json. The token must be the current one of the caller's key the link was made for.
     */
    async openTokenDownload(
      userId: number,
      input: { downloadUrl: string; token: string; requestHost: string | undefined },
    ): Promise<ReleaseDownload> {
      const check = links.parse(input.downloadUrl, input.requestHost);
      if (!check.ok) throw linkError(check.problem);
      const claims = await themeTokens.verifySignature(input.token);
      if (!claims) throw forbidden(DOWNLOAD_MESSAGES.tokenMissing);
      const { key, release } = await resolveOwnRelease(userId, claims.kid, check.claims, claims);
      await downloadLimit.hit(`download-user:${userId}`);
      // The release is of the key's current edition; the token written into it names that edition too.
      const token = await themeTokens.tokenForTier(input.token, claims, release.edition);
      const prepared = await preparedZips.get(await storage.localPath(release.storageKey));
      const zip = tokenizePreparedThemeZip(prepared, token);
      await recordDownload(key, userId, release, 'token');
      return { stream: zip.stream, contentLength: zip.contentLength, filename: releaseFilename(release) };
    },

    /** §7 POST /api/proxy_dl: the fallback without the token; the same allowlist, nothing is ever fetched. */
    async openProxyDownload(
      userId: number,
      input: { url: string; requestHost: string | undefined },
    ): Promise<ReleaseDownload> {
      const check = links.parse(input.url, input.requestHost);
      if (!check.ok) throw linkError(check.problem);
      const { key, release } = await resolveOwnRelease(userId, check.claims.keyId, check.claims);
      await downloadLimit.hit(`download-user:${userId}`);
      const download = await openStoredZip(release);
      await recordDownload(key, userId, release, 'proxy');
      return download;
    },

    /** GET /staff/releases: an edition's releases, newest version first, with the current flag and store counts. */
    async listEditionReleases(edition: Tier): Promise<{ releases: StaffRelease[]; current_chosen: boolean }> {
      const [rows, currentId, stores] = await Promise.all([
        repo.listEditionReleases(db, edition),
        repo.findCurrentReleaseId(db, edition),
        repo.countStoresPerRelease(db, edition, deps.checkinEvidence(edition)),
      ]);
      const servedId = (rows.find((row) => row.id === currentId) ?? pickLatestRelease(rows))?.id ?? null;
      const newestFirst = [...rows].sort((a, b) => compareVersionsLeniently(b.version, a.version) || b.id - a.id);
      return {
        releases: newestFirst.map((row) => staffRelease(row, servedId, stores)),
        current_chosen: currentId !== null,
      };
    },

    /** GET /staff/releases/:id: the release, its manifest (path order) and the stores running it. */
    async staffReleaseDetail(id: number) {
      const release = await repo.findRelease(db, id);
      if (!release) throw notFound(RELEASE_NOT_FOUND, 'release_not_found');
      const [summary, manifest, stores] = await Promise.all([
        toStaffRelease(release.edition, release),
        releaseManifest(release),
        repo.listStoresOnRelease(db, release.edition, release.id, STORES_SHOWN, deps.checkinEvidence(release.edition)),
      ]);
      return {
        release: summary,
        manifest: Object.entries(manifest)
          .sort(([a], [b]) => a.localeCompare(b))
          .map(([file, sha256]) => ({ path: file, sha256 })),
        migration_map: release.migrationMap,
        stores: stores.map((row) => ({
          key_id: row.keyId,
          store: row.store,
          seen_at: new Date(row.seenAt).toISOString(),
          seen_by: row.seenBy,
        })),
      };
    },

    /** POST /staff/releases/:id/make-current: the edition's customers get this release from now on; audited. */
    async makeReleaseCurrent(staffId: number, id: number, reason: string): Promise<StaffRelease> {
      const release = await repo.findRelease(db, id);
      if (!release) throw notFound(RELEASE_NOT_FOUND, 'release_not_found');
      await db.transaction(async (tx) => {
        const previous = await repo.findCurrentReleaseId(tx, release.edition);
        await repo.setCurrentRelease(tx, release, staffId);
        await audit.record(tx, {
          actor: { type: 'staff', id: staffId },
          action: 'release.made_current',
          object: { type: 'release', id: release.id },
          reason,
          data: { edition: release.edition, version: release.version, previous_release_id: previous },
        });
      });
      return toStaffRelease(release.edition, release);
    },
  };
}
export type ReleasesService = ReturnType<typeof createReleasesService>;

/** Version order for listing; a stored version that is not semantic (none should be) sorts first, as found. */
function compareVersionsLeniently(a: string, b: string): number {
  const validA = isReleaseVersion(a);
  const validB = isReleaseVersion(b);
  if (validA && validB) return compareReleaseVersions(a, b);
  return Number(validA) - Number(validB);
}

/** How many stores the release detail lists. */
const STORES_SHOWN = 100;

/** A release row as the API answers it. */
export function toRelease(row: repo.ReleaseRow): Release {
  return {
    id: row.id,
    edition: row.edition,
    version: row.version,
    notes: row.notes,
    theme_name: row.themeName,
    size_bytes: row.sizeBytes,
    created_at: row.createdAt.toISOString(),
  };
}

function staffRelease(row: repo.ReleaseRow, servedId: number | null, stores: Map<number, number>): StaffRelease {
  return { ...toRelease(row), current: row.id === servedId, stores: stores.get(row.id) ?? 0 };
}

function linkError(problem: LinkProblem): AppError {
  return problem === 'expired' ? linkExpired() : badRequest(DOWNLOAD_MESSAGES.linkMissing);
}

/** Expired, wrongly signed, or its owner no longer owns the key: the same answer for each. */
function linkExpired(): AppError {
  return forbidden(LINK_EXPIRED, 'link_expired');
}

/** A refused zip: 413 when too large, else 400, with the zip problem's message and code. */
function toUploadError(error: unknown): never {
  if (!isThemeZipError(error)) throw error;
  throw new AppError(error.code === 'zip_too_large' ? 413 : 400, error.message, error.code);
}

function storedZipEtag(storageKey: string, size: number): string {
  return `"${createHash('sha256').update(`${storageKey}:${size}`).digest('base64url').slice(0, 27)}"`;
}

function versionExists(input: { edition: Tier; version: string }): AppError {
  return conflict(`Version ${input.version} of the ${input.edition} edition already exists.`);
}

/** `<theme>-<edition>-<version>.zip`, e.g. `aurora-pro-4.2.0.zip`; `theme-…` when the theme's name is unknown. */
export function releaseFilename(release: { themeName: string | null; edition: Tier; version: string }): string {
  const theme = slugify(release.themeName ?? '') || 'theme';
  const version = release.version.replace(/[^0-9A-Za-z.+-]/g, '-');
  return `${theme}-${release.edition.toLowerCase()}-${version}.zip`;
}

function slugify(name: string): string {
  return name
    .normalize('NFKD')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .slice(0, 60)
    .replace(/^-+|-+$/g, '');
}
