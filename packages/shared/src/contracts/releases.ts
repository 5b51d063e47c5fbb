import { z } from 'zod/mini';
import { globalRegistry } from 'zod/v4/core';
import { TIERS } from '../domain/tiers';
import { defineContract } from './define';
import { MigrationMapSchema } from './migration-map';
import { StaffReasonSchema } from './staff';
import { idString } from './ids';

const url = z.string().check(z.minLength(1, 'Download link not available.'), z.maxLength(2048, 'The link is too long'));

export const ReleaseInfoSchema = z.object({ version: z.string(), download_link: z.string() });

/** §7 POST /staff/get-releases: the release of the key's edition, with a short-lived signed link of this server. */
export const getReleases = defineContract({
  operationId: 'getReleases',
  method: 'POST',
  path: '/staff/get-releases',
  summary: "The current release of the key's edition, with a short-lived download link",
  tags: ['releases'],
  access: 'user',
  body: z.object({ key: z.string().check(z.trim(), z.minLength(1, 'key is required'), z.maxLength(100)) }),
  response: z.object({ result: ReleaseInfoSchema }),
});

/** §7 POST /api/download-with-token: the release zip with the token written into config/settings_data.json. */
export const downloadWithToken = defineContract({
  operationId: 'downloadWithToken',
  produces: 'application/zip',
  method: 'POST',
  path: '/api/download-with-token',
  summary: 'Download the theme with the auth token inside (a zip)',
  tags: ['releases'],
  access: 'user',
  body: z.object({
    downloadUrl: url,
    token: z
      .string()
      .check(
        z.minLength(1, 'Authentication token not available. Please generate token first.'),
        z.maxLength(4096, 'The token is too long'),
      ),
    licenseType: z.optional(z.string().check(z.maxLength(20))),
  }),
});

/** §7 POST /api/proxy_dl: the fallback download without the token; only this server's own release links. */
export const proxyDownload = defineContract({
  operationId: 'proxyDownload',
  produces: 'application/zip',
  method: 'POST',
  path: '/api/proxy_dl',
  summary: 'Download the theme without the token (fallback; own release links only)',
  tags: ['releases'],
  access: 'user',
  body: z.object({ url }),
});

/**
 * The signed link itself: GET streams the unmodified release zip (the manual download link), while the user named in
 * it still owns the key; HEAD describes it, and a single `Range` resumes it (206).
 */
export const downloadRelease = defineContract({
  operationId: 'downloadRelease',
  produces: 'application/zip',
  method: 'GET',
  path: '/api/releases/:id/download',
  summary: 'The release zip behind a signed, short-lived link',
  tags: ['releases'],
  access: 'public',
  params: z.object({ id: idString('Invalid release') }),
  query: z.object({
    key: idString('Invalid link'),
    user: idString('Invalid link'),
    expires: z.string().check(z.regex(/^\d{1,13}$/, 'Invalid link')),
    sig: z.string().check(z.regex(/^[A-Za-z0-9_-]{43}$/, 'Invalid link')),
  }),
});

/** A stored release: what the upload answers. */
export const ReleaseSchema = z.object({
  id: z.int(),
  edition: z.enum(TIERS),
  version: z.string(),
  notes: z.string(),
  theme_name: z.nullable(z.string()),
  size_bytes: z.number(),
  created_at: z.string(),
});
export type Release = z.infer<typeof ReleaseSchema>;

/**
 * Staff upload (multipart: edition, version, notes, reason, optional migration_map, file); audited with the reason.
 * `migration_map` is the text of a JSON migration map (contracts/migration-map.ts), checked against the release's
 * files: 400 `invalid_migration_map` naming the first problem.
 */
export const uploadRelease = defineContract({
  operationId: 'uploadRelease',
  method: 'POST',
  path: '/staff/releases',
  summary: 'Upload a theme release zip for an edition (staff only, multipart/form-data)',
  tags: ['releases'],
  access: 'staff',
  status: 201,
  multipartBody: z.object({
    edition: z.enum(TIERS),
    version: z.string().check(z.maxLength(32)),
    notes: z.optional(z.string().check(z.maxLength(5000))),
    reason: StaffReasonSchema,
    migration_map: z.optional(
      z.string().register(globalRegistry, {
        contentMediaType: 'application/json',
        description: 'What this version renamed since the previous one (settings, colour schemes, sections, blocks)',
      }),
    ),
    file: z.string().register(globalRegistry, { contentMediaType: 'application/zip', description: 'The theme zip' }),
  }),
  response: z.object({ release: ReleaseSchema }),
});

const ReleaseIdParams = z.object({ id: idString('Invalid release') });

/** A release as the staff console lists it. `stores`: keys whose newest download or covered check-in is this release. */
export const StaffReleaseSchema = z.extend(ReleaseSchema, {
  /** The release customers of its edition download now (chosen by staff, else the newest version). */
  current: z.boolean(),
  stores: z.int(),
});
export type StaffRelease = z.infer<typeof StaffReleaseSchema>;

/** One edition's releases, newest version first; `current_chosen` says whether staff chose the current one. */
export const staffListReleases = defineContract({
  operationId: 'staffListReleases',
  method: 'GET',
  path: '/staff/releases',
  summary: "An edition's releases with size, notes, upload date and the current flag (staff only)",
  tags: ['staff'],
  access: 'staff',
  query: z.object({ edition: z.enum(TIERS) }),
  response: z.object({ releases: z.array(StaffReleaseSchema), current_chosen: z.boolean() }),
});

/** A store running a release: its key, its store (domain) and the newest evidence, a download or a check-in. */
export const ReleaseStoreSchema = z.object({
  key_id: z.int(),
  store: z.nullable(z.string()),
  seen_at: z.string(),
  /** 'download': the key's newest download was this release; 'check-in': the theme reported this version (issue 13). */
  seen_by: z.enum(['download', 'check-in']),
});

/**
 * One release: its per-file manifest and the stores (keys) whose newest evidence is this release (a download, or a
 * license check-in from a covered domain reporting its version), most recent first (100 at most).
 */
export const staffGetRelease = defineContract({
  operationId: 'staffGetRelease',
  method: 'GET',
  path: '/staff/releases/:id',
  summary: 'A release with its per-file manifest and the stores running it (staff only)',
  tags: ['staff'],
  access: 'staff',
  params: ReleaseIdParams,
  response: z.object({
    release: StaffReleaseSchema,
    manifest: z.array(z.object({ path: z.string(), sha256: z.string() })),
    /** What this version renamed since the previous one (uploaded with the release), or null. */
    migration_map: z.nullable(MigrationMapSchema),
    stores: z.array(ReleaseStoreSchema),
  }),
});

/** Makes a release the one its edition's customers download (audited with the reason). */
export const staffMakeReleaseCurrent = defineContract({
  operationId: 'staffMakeReleaseCurrent',
  method: 'POST',
  path: '/staff/releases/:id/make-current',
  summary: "Make a release its edition's current one (staff only)",
  tags: ['staff'],
  access: 'staff',
  params: ReleaseIdParams,
  body: z.object({ reason: StaffReasonSchema }),
  response: z.object({ release: StaffReleaseSchema }),
});

export const DOWNLOAD_MESSAGES = {
  linkMissing: 'Download link not available.',
  tokenMissing: 'Authentication token not available. Please generate token first.',
  failed: 'Download failed',
  failedCompletely: 'Download failed completely...',
  versionInfoFailed: 'Failed to fetch theme version info',
} as const;
