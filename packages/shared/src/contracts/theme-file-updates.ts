import { z } from 'zod/mini';
import { globalRegistry } from 'zod/v4/core';
import { TIERS } from '../domain/tiers';
import { defineContract } from './define';
import { idString } from './ids';

/** §3 Upgradable key: upgrade_status is one of these two texts. */
export const UPGRADE_STATUSES = ['Lite to Regular', 'Regular to Pro'] as const;
export type UpgradeStatus = (typeof UPGRADE_STATUSES)[number];

export const UpgradableKeySchema = z.object({ key: z.string(), upgrade_status: z.enum(UPGRADE_STATUSES) });
export type UpgradableKey = z.infer<typeof UpgradableKeySchema>;

/**
 * §7 GET /keys/list_keys_upgrade. An upgradable key is one of the caller's REGULAR or PRO keys that a lower key of
 * theirs can take theme files from: a REGULAR key when they also own a LITE key ('Lite to Regular'), a PRO key when
 * they also own a LITE or REGULAR key ('Regular to Pro'). See ADR 020.
 */
export const listKeysUpgrade = defineContract({
  operationId: 'listKeysUpgrade',
  method: 'GET',
  path: '/keys/list_keys_upgrade',
  summary: "The caller's keys that a lower key of theirs can take theme files from",
  tags: ['theme-file-updates'],
  access: 'user',
  response: z.object({ upgradable_keys: z.array(UpgradableKeySchema), error: z.null() }),
});

/**
 * The report of a theme-file update (issue 20), as stored, answered (`report.json`) and rendered (`report.html`).
 * It is about the merchant's own changes: each one is in exactly one group.
 * - `kept`: carried into the new theme as it was (a setting value, a section or block added or removed, a text, the
 *   order of the home page, an added file, an edited file the new version did not change).
 * - `moved`: carried over under its new name (the new version renamed it; its migration map says so).
 * - `review`: carried over but worth a look, or kept aside: both sides changed the same value (yours is kept,
 *   `theirs` is the new version's), or a file both changed (the new version is in the theme, yours in the review
 *   download, `diff` against the release you started from).
 * - `dropped`: not carried over, with the reason (the new version has no such setting, section type, text…).
 * What the new version changed by itself (files updated, added, removed) is in `vendor`, not in the groups.
 */
export const REPORT_GROUPS = ['kept', 'moved', 'review', 'dropped'] as const;
export type ReportGroup = (typeof REPORT_GROUPS)[number];

/** Each group's heading and what it means (the HTML report and the web page show the same), most urgent first. */
export const REPORT_GROUP_TEXT: Record<ReportGroup, { title: string; explanation: string }> = {
  review: {
    title: 'Needs your review',
    explanation:
      'Carried over but worth a look (the new version changed the same thing), or kept aside: your copy of each such file is in the review download.',
  },
  dropped: {
    title: 'Dropped',
    explanation: 'Not carried over, each with the reason. Your value is shown so you can set it again.',
  },
  moved: { title: 'Moved', explanation: 'Carried over under the new name the new version gives it.' },
  kept: { title: 'Kept', explanation: 'Your changes, carried into the new theme as they were.' },
};
export const REPORT_GROUP_ORDER: readonly ReportGroup[] = ['review', 'dropped', 'moved', 'kept'];

/** What one item is about. */
export const REPORT_ITEM_KINDS = ['file', 'setting', 'section', 'block', 'text', 'order', 'property'] as const;
export type ReportItemKind = (typeof REPORT_ITEM_KINDS)[number];

export const ReportItemSchema = z.object({
  group: z.enum(REPORT_GROUPS),
  kind: z.enum(REPORT_ITEM_KINDS),
  /** The file inside the theme, e.g. `config/settings_data.json`, `templates/index.json`, `snippets/badge.liquid`. */
  file: z.string(),
  /** Where inside a JSON file, dot-separated (`current.logo_width`, `sections.main.blocks.b1`); absent for a file. */
  path: z.optional(z.string()),
  /** For `moved`: where it was (same file unless given). */
  from: z.optional(z.object({ file: z.optional(z.string()), path: z.optional(z.string()) })),
  /** Why, in words for people. */
  reason: z.string(),
  /** The merchant's value (JSON). For a section or block: the whole of it. */
  yours: z.optional(z.unknown()),
  /** For a conflict: the new version's value (JSON), which yours replaced. */
  theirs: z.optional(z.unknown()),
  /** For a text file the merchant edited: a unified diff of their edit against the release they started from. */
  diff: z.optional(z.string()),
});
export type ReportItem = z.infer<typeof ReportItemSchema>;

const ReleaseRefSchema = z.object({
  edition: z.enum(TIERS),
  version: z.string(),
  theme_name: z.nullable(z.string()),
});

/** Which release the export was found to be, by its files (never by the version it states). */
export const ReleaseDetectionSchema = z.object({
  /** The release with the most files identical to the export's; null when none is close enough (`confident` false). */
  release: z.nullable(ReleaseRefSchema),
  /** Files of that release the export has byte for byte, of `release_files`. */
  identical_files: z.int(),
  release_files: z.int(),
  export_files: z.int(),
  /** Whether the match is good enough to merge three ways against it (else: a two-way merge, see warnings). */
  confident: z.boolean(),
  /** `theme_info.theme_version` of the export (often behind the real release). */
  stated_version: z.nullable(z.string()),
  /** One sentence, e.g. "312 of 330 files identical to Dawn 14.0.0 (REGULAR)." */
  summary: z.string(),
});
export type ReleaseDetection = z.infer<typeof ReleaseDetectionSchema>;

export const ThemeFileUpdateReportSchema = z.object({
  detection: ReleaseDetectionSchema,
  /** Counts per group, first. */
  summary: z.object({ kept: z.int(), moved: z.int(), review: z.int(), dropped: z.int() }),
  /** Every one of the merchant's changes, in one of the groups. */
  items: z.array(ReportItemSchema),
  /** The new version's own changes to files the merchant had left alone (paths), and how many stayed the same. */
  vendor: z.object({
    updated: z.array(z.string()),
    added: z.array(z.string()),
    removed: z.array(z.string()),
    unchanged: z.int(),
  }),
  warnings: z.array(z.string()),
});
export type ThemeFileUpdateReportBody = z.infer<typeof ThemeFileUpdateReportSchema>;

export const THEME_FILE_UPDATE_RUN_STATUSES = ['running', 'succeeded', 'failed', 'cancelled'] as const;
export type ThemeFileUpdateRunStatus = (typeof THEME_FILE_UPDATE_RUN_STATUSES)[number];

/**
 * Where a run in progress is (ADR 041): `queued` (waiting for a worker), then the job's phases: `upload` (the stored
 * export is read back and checked), `detect` (which release it is, by its files), `merge` (the three-way merge and
 * the new theme zip), `check` (the new zip is read back: the target theme, its version, the token) and `write` (the
 * files stored, the connection moved when asked).
 */
export const THEME_FILE_UPDATE_PHASES = ['queued', 'upload', 'detect', 'merge', 'check', 'write'] as const;
export type ThemeFileUpdatePhase = (typeof THEME_FILE_UPDATE_PHASES)[number];

/** Each phase in words for the page. */
export const THEME_FILE_UPDATE_PHASE_TEXT: Record<ThemeFileUpdatePhase, string> = {
  queued: 'Waiting to start',
  upload: 'Reading your theme export',
  detect: 'Finding the release your theme started from',
  merge: 'Merging your changes into the new version',
  check: 'Checking the new theme',
  write: 'Saving the new theme',
};

const ThemeSideSchema = z.object({ key: z.string(), edition: z.enum(TIERS), version: z.nullable(z.string()) });

export const ThemeFileUpdateRunSchema = z.object({
  id: z.int(),
  status: z.enum(THEME_FILE_UPDATE_RUN_STATUSES),
  /** The key (and edition, version) of the theme the store runs now: the one the merchant uploaded. */
  source: ThemeSideSchema,
  /** The key whose edition's latest release the output is built from, and whose token is written into it. */
  target: ThemeSideSchema,
  /** Null while running or when the run failed before a report existed. */
  report: z.nullable(ThemeFileUpdateReportSchema),
  /** Null when the run did not succeed or the files have expired. */
  download_url: z.nullable(z.string()),
  report_json_url: z.nullable(z.string()),
  report_html_url: z.nullable(z.string()),
  /** The merchant's own copies of the files kept aside (report group `review` with a file); null when none. */
  review_url: z.nullable(z.string()),
  created_at: z.string(),
  expires_at: z.string(),
  connection_moved: z.boolean(),
  /** While `running`: the phase and how far in it (`done` of `total` files; 0 of 0 when it cannot count). */
  phase: z.nullable(z.enum(THEME_FILE_UPDATE_PHASES)),
  progress: z.nullable(z.object({ done: z.int(), total: z.int() })),
  /** When `failed`: why (the message is for people; null message for an internal error). */
  error: z.nullable(z.object({ code: z.string(), message: z.nullable(z.string()) })),
  /** The store whose license the customer agreed to move away (the target key's), when they had to. */
  consent_store: z.nullable(z.string()),
});
export type ThemeFileUpdateRun = z.infer<typeof ThemeFileUpdateRunSchema>;

const keyField = z.string().check(z.trim(), z.minLength(1, 'key is required'), z.maxLength(100));
const runIdParams = z.object({ id: idString('Invalid upgrade run') });

/**
 * The page's "before anything happens" view: source and target license, edition and the version of each. The source
 * version is the store's (unknown until the upload: null); the target version is the latest release of its edition.
 */
export const previewThemeFileUpdate = defineContract({
  operationId: 'previewThemeFileUpdate',
  method: 'GET',
  path: '/theme-file-updates/preview',
  summary: 'Source and target license, edition and target version of a theme upgrade, before the upload',
  tags: ['theme-file-updates'],
  access: 'user',
  query: z.object({ target_key: keyField, source_key: keyField }),
  response: z.object({
    source: ThemeSideSchema,
    target: ThemeSideSchema,
    /** 'upgrade' when the target's edition is higher than the source's, 'update' for the same edition. */
    kind: z.enum(['upgrade', 'update']),
    /** Whether the source key has a store connection that an upgrade may move to the target key. */
    source_connected: z.boolean(),
    source_store: z.nullable(z.string()),
    /**
     * The store the target key licenses now when it is another store than the source's: moving the connection takes
     * that store's license away, so the upload must name it in `consent_store` (ADR 041). Null otherwise.
     */
    target_store: z.nullable(z.string()),
  }),
});

/**
 * Multipart: target_key, source_key, move_connection ('true'/'false'), consent_store (when the target key licenses
 * another store: that store's name, the customer's consent that it loses its license), then the file `theme` (the
 * store's export). Same-edition update: source_key = target_key. Answers at once with the run (`running`, phase
 * `queued`); the work runs as a job (poll `GET /theme-file-updates/:id`). Errors: 400/413/422 `{error, code}` for bad
 * input, 404 for a key that is not the caller's, 409 when another run of that key or store is in progress, and 409
 * `target_connected` when moving the connection would take another store's license without a consent naming it.
 */
export const createThemeFileUpdate = defineContract({
  operationId: 'createThemeFileUpdate',
  method: 'POST',
  path: '/theme-file-updates',
  summary: "Upgrade or update a store's theme export to the target key's latest release (multipart/form-data)",
  tags: ['theme-file-updates'],
  access: 'user',
  status: 201,
  multipartBody: z.object({
    target_key: z.string().check(z.maxLength(100)),
    source_key: z.string().check(z.maxLength(100)),
    move_connection: z.optional(z.enum(['true', 'false'])),
    consent_store: z.optional(z.string().check(z.maxLength(255))),
    theme: z
      .string()
      .register(globalRegistry, { contentMediaType: 'application/zip', description: "The store's theme export" }),
  }),
  response: z.object({ run: ThemeFileUpdateRunSchema }),
});

export const listThemeFileUpdates = defineContract({
  operationId: 'listThemeFileUpdates',
  method: 'GET',
  path: '/theme-file-updates',
  summary: "The caller's theme upgrade runs, newest first (optionally those of one key, as source or target)",
  tags: ['theme-file-updates'],
  access: 'user',
  query: z.object({ key: z.optional(z.string().check(z.maxLength(100))) }),
  response: z.object({ runs: z.array(ThemeFileUpdateRunSchema) }),
});

export const getThemeFileUpdate = defineContract({
  operationId: 'getThemeFileUpdate',
  method: 'GET',
  path: '/theme-file-updates/:id',
  summary: 'One theme upgrade run with its report',
  tags: ['theme-file-updates'],
  access: 'user',
  params: runIdParams,
  response: z.object({ run: ThemeFileUpdateRunSchema }),
});

/**
 * Cancels a run in progress (owner only): it writes nothing and moves no connection. 409 `run_finished` when it has
 * already ended.
 */
export const cancelThemeFileUpdate = defineContract({
  operationId: 'cancelThemeFileUpdate',
  method: 'POST',
  path: '/theme-file-updates/:id/cancel',
  summary: 'Cancel a theme upgrade run in progress',
  tags: ['theme-file-updates'],
  access: 'user',
  params: runIdParams,
  response: z.object({ run: ThemeFileUpdateRunSchema }),
});

/** The output zip (owner only; 410 after 7 days). */
export const downloadThemeFileUpdateZip = defineContract({
  operationId: 'downloadThemeFileUpdateZip',
  produces: 'application/zip',
  method: 'GET',
  path: '/theme-file-updates/:id/theme.zip',
  summary: 'The upgraded theme zip of a run',
  tags: ['theme-file-updates'],
  access: 'user',
  params: runIdParams,
});

export const downloadThemeFileUpdateReportJson = defineContract({
  operationId: 'downloadThemeFileUpdateReportJson',
  method: 'GET',
  path: '/theme-file-updates/:id/report.json',
  summary: 'The report of a run as a JSON download',
  tags: ['theme-file-updates'],
  access: 'user',
  params: runIdParams,
  response: ThemeFileUpdateReportSchema,
});

export const downloadThemeFileUpdateReportHtml = defineContract({
  operationId: 'downloadThemeFileUpdateReportHtml',
  produces: 'text/html',
  method: 'GET',
  path: '/theme-file-updates/:id/report.html',
  summary: 'The report of a run as a readable HTML page',
  tags: ['theme-file-updates'],
  access: 'user',
  params: runIdParams,
});

/** The merchant's copies of the files they had edited (owner only; 410 after 7 days). */
export const downloadThemeFileUpdateReview = defineContract({
  operationId: 'downloadThemeFileUpdateReview',
  produces: 'application/zip',
  method: 'GET',
  path: '/theme-file-updates/:id/review.zip',
  summary: 'Your own copies of the files you had edited, for review',
  tags: ['theme-file-updates'],
  access: 'user',
  params: runIdParams,
});

/**
 * The paths these routes had before the rename (ADR 044), `/theme-upgrades…`, answering the same for one release: a
 * page loaded before the deploy keeps polling its run, cancelling it and downloading its files there. Each is its
 * contract with the old path (same access, schemas and handler). Remove them in the release after.
 */
const atOldPath = <const C extends { operationId: string; path: string; summary: string }>(contract: C, path: string) =>
  ({
    ...contract,
    operationId: `${contract.operationId}AtOldPath`,
    path,
    summary: `${contract.summary} (its path before ADR 044, kept for one release: ${contract.path})`,
  }) as const;
export const previewThemeFileUpdateAtOldPath = defineContract(
  atOldPath(previewThemeFileUpdate, '/theme-upgrades/preview'),
);
export const createThemeFileUpdateAtOldPath = defineContract(atOldPath(createThemeFileUpdate, '/theme-upgrades'));
export const listThemeFileUpdatesAtOldPath = defineContract(atOldPath(listThemeFileUpdates, '/theme-upgrades'));
export const getThemeFileUpdateAtOldPath = defineContract(atOldPath(getThemeFileUpdate, '/theme-upgrades/:id'));
export const cancelThemeFileUpdateAtOldPath = defineContract(
  atOldPath(cancelThemeFileUpdate, '/theme-upgrades/:id/cancel'),
);
export const downloadThemeFileUpdateZipAtOldPath = defineContract(
  atOldPath(downloadThemeFileUpdateZip, '/theme-upgrades/:id/theme.zip'),
);
export const downloadThemeFileUpdateReportJsonAtOldPath = defineContract(
  atOldPath(downloadThemeFileUpdateReportJson, '/theme-upgrades/:id/report.json'),
);
export const downloadThemeFileUpdateReportHtmlAtOldPath = defineContract(
  atOldPath(downloadThemeFileUpdateReportHtml, '/theme-upgrades/:id/report.html'),
);
export const downloadThemeFileUpdateReviewAtOldPath = defineContract(
  atOldPath(downloadThemeFileUpdateReview, '/theme-upgrades/:id/review.zip'),
);

/** Days a run's files can be downloaded again. */
export const THEME_FILE_UPDATE_RETENTION_DAYS = 7;

/** §8 "Upgrade flows" texts (the web shows them; the server answers some of them). */
export const THEME_FILE_UPDATE_MESSAGES = {
  loadOptionsFailed: 'Failed to load upgrade options',
  checkOptionsFailed: 'Failed to check upgrade options',
  noHigherTier: 'No higher-tier licenses found. You need a REGULAR or PRO license to upgrade LITE theme files.',
  noUpgradeAvailable: 'No upgrade available for your license level',
  selectLicenseType: 'Please select a license type to upgrade your theme from.',
  invalidSource: 'Could not find a valid source license for the selected type.',
  needPro: 'You need a Pro key to perform this upgrade',
  runInProgress: 'Another theme upgrade of this key or store is in progress. Please wait for it to finish.',
  expired: 'This upgrade has expired. Run the upgrade again to get new files.',
  editionMismatch: "The uploaded theme's edition does not match the source license.",
  notHigher: 'The target license must be of the same or a higher edition than the source license.',
  noRelease: 'No release is available for this edition yet.',
  runFinished: 'This upgrade has already finished.',
  cancelled: 'Upgrade cancelled. Nothing was changed.',
  internalFailure: 'The upgrade could not be finished. Please try again.',
} as const;

/**
 * ADR 041: the consent asked before a key that licenses another store is moved to this store. The same words on the
 * page's checkbox and in the server's 409.
 */
export const targetConsentText = (store: string) =>
  `I understand that ${store} will lose its license: the key stops working there once the upgrade finishes.`;
export const targetConnectedError = (store: string) =>
  `This license key is connected to ${store}. Moving it to your store takes that store's license away: confirm that ${store} will lose its license.`;
