import { createHash, randomBytes } from 'node:crypto';
import { rm } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import type { ThemeTokenClaims } from '@keyport/shared/contracts/connect';
import { DOWNLOAD_MESSAGES } from '@keyport/shared/contracts/releases';
import type { Tier } from '@keyport/shared/domain/tiers';
import type { Db } from '../../db/client';
import { AppError, badRequest, conflict, forbidden, notFound } from '../../http/errors';
import { OWNED_KEY_NOT_FOUND } from '@keyport/shared/contracts/keys';
import type { RateLimiter } from '../../http/rate-limit';
import type { StoragePort } from '../../integrations/storage/port';
import type { KeysService } from '../keys/keys.service';
import type { DownloadLinkClaims, DownloadLinks, LinkProblem, SignedLinkQuery } from './download-link';
import { createPreparedZipCache } from '../../lib/theme-zip/prepared-zip-cache';
import { computeReleaseManifest, type ReleaseManifest } from './release-manifest';
import { pickLatestRelease } from './release-version';
import * as repo from './releases.repo';
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
  createdBy: number | null;
}

export interface ReleasesServiceDeps {
  db: Db;
  storage: StoragePort;
  links: DownloadLinks;
  /** Owner-scoped key look-ups (modules/keys owns license_keys). */
  keys: Pick<KeysService, 'requireOwnedKey' | 'findOwnedKeyById'>;
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
  maxZipBytes: number;
}

/** Releases per edition, their download links and the three download routes of §7. */
export function createReleasesService(deps: ReleasesServiceDeps) {
  const { db, storage, links, keys, themeTokens, downloadLimit } = deps;
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
    return release;
  }

  /** Moves a checked zip into storage and records the release (409 when the version appeared meanwhile). */
  async function storeRelease(input: PublishReleaseInput, zipPath: string, themeName: string | null) {
    const manifest = await computeReleaseManifest(zipPath, limits).catch(toUploadError);
    const storageKey = `${input.edition.toLowerCase()}/${input.version}-${randomBytes(6).toString('hex')}.zip`;
    const { size } = await storage.put(storageKey, zipPath);
    const row = await repo
      .insertRelease(db, {
        edition: input.edition,
        version: input.version,
        notes: input.notes,
        themeName,
        storageKey,
        sizeBytes: size,
        createdBy: input.createdBy,
        manifest,
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
        return await storeRelease(input, repackedPath ?? input.zipPath, info.themeName);
      } finally {
        if (repackedPath) await rm(repackedPath, { force: true });
      }
    },

    hasRelease: (edition: Tier) => repo.hasEditionRelease(db, edition),

    /** The newest release of an edition (by version), or null. */
    async findLatestRelease(edition: Tier): Promise<repo.ReleaseRow | null> {
      return pickLatestRelease(await repo.listEditionReleases(db, edition)) ?? null;
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
    async releaseManifest(release: repo.ReleaseRow): Promise<ReleaseManifest> {
      if (release.manifest) return release.manifest;
      const manifest = await computeReleaseManifest(await storage.localPath(release.storageKey), limits);
      await repo.setReleaseManifest(db, release.id, manifest);
      return manifest;
    },

    /** §7 POST /staff/get-releases: the newest release of the caller's key's edition, with a signed link. */
    async getReleaseInfo(userId: number, apiKey: string): Promise<{ version: string; download_link: string }> {
      const key = await keys.requireOwnedKey(userId, apiKey);
      const release = pickLatestRelease(await repo.listEditionReleases(db, key.tier));
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
          downloadLimit.hit(`download-key:${claims.keyId}`);
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
      const release = await resolveOwnRelease(userId, claims.kid, check.claims, claims);
      downloadLimit.hit(`download-user:${userId}`);
      // The release is of the key's current edition; the token written into it names that edition too.
      const token = await themeTokens.tokenForTier(input.token, claims, release.edition);
      const prepared = await preparedZips.get(await storage.localPath(release.storageKey));
      const zip = tokenizePreparedThemeZip(prepared, token);
      return { stream: zip.stream, contentLength: zip.contentLength, filename: releaseFilename(release) };
    },

    /** §7 POST /api/proxy_dl: the fallback without the token; the same allowlist, nothing is ever fetched. */
    async openProxyDownload(
      userId: number,
      input: { url: string; requestHost: string | undefined },
    ): Promise<ReleaseDownload> {
      const check = links.parse(input.url, input.requestHost);
      if (!check.ok) throw linkError(check.problem);
      const release = await resolveOwnRelease(userId, check.claims.keyId, check.claims);
      downloadLimit.hit(`download-user:${userId}`);
      return openStoredZip(release);
    },
  };
}
export type ReleasesService = ReturnType<typeof createReleasesService>;

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
