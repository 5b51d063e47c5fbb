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
  tags: ['theme-upgrades'],
  access: 'user',
  response: z.object({ upgradable_keys: z.array(UpgradableKeySchema), error: z.null() }),
});

/** One decision of the merge, per file or per setting. */
export const REPORT_ITEM_STATUSES = ['kept', 'changed', 'dropped', 'edited', 'added'] as const;
export type ReportItemStatus = (typeof REPORT_ITEM_STATUSES)[number];

export const ReportItemSchema = z.object({
  /** The file inside the theme, e.g. `config/settings_data.json` or `templates/index.json`. */
  file: z.string(),
  /** The setting, section or block inside the file (a JSON-pointer-like path); absent for a whole-file decision. */
  path: z.optional(z.string()),
  status: z.enum(REPORT_ITEM_STATUSES),
  /** Why, in words for people (e.g. 'setting no longer exists in the target', 'edited by you — review'). */
  reason: z.optional(z.string()),
  /** The merchant's value (JSON), for dropped and changed settings. */
  old_value: z.optional(z.unknown()),
  /** The value written to the output (JSON), for changed settings. */
  new_value: z.optional(z.unknown()),
});
export type ReportItem = z.infer<typeof ReportItemSchema>;

/** The engine's report as stored and shown: counts, then every decision. */
export const ThemeUpgradeReportSchema = z.object({
  summary: z.object({
    kept: z.int(),
    changed: z.int(),
    dropped: z.int(),
    edited: z.int(),
    added: z.int(),
  }),
  items: z.array(ReportItemSchema),
  warnings: z.array(z.string()),
});
export type ThemeUpgradeReportBody = z.infer<typeof ThemeUpgradeReportSchema>;

export const THEME_UPGRADE_RUN_STATUSES = ['running', 'succeeded', 'failed'] as const;
export type ThemeUpgradeRunStatus = (typeof THEME_UPGRADE_RUN_STATUSES)[number];

const ThemeSideSchema = z.object({ key: z.string(), edition: z.enum(TIERS), version: z.nullable(z.string()) });

export const ThemeUpgradeRunSchema = z.object({
  id: z.int(),
  status: z.enum(THEME_UPGRADE_RUN_STATUSES),
  /** The key (and edition, version) of the theme the store runs now: the one the merchant uploaded. */
  source: ThemeSideSchema,
  /** The key whose edition's latest release the output is built from, and whose token is written into it. */
  target: ThemeSideSchema,
  /** Null while running or when the run failed before a report existed. */
  report: z.nullable(ThemeUpgradeReportSchema),
  /** Null when the run did not succeed or the files have expired. */
  download_url: z.nullable(z.string()),
  report_json_url: z.nullable(z.string()),
  report_html_url: z.nullable(z.string()),
  /** The merchant's own copies of the files they edited (listed "edited by you — review"); null when none. */
  review_url: z.nullable(z.string()),
  created_at: z.string(),
  expires_at: z.string(),
  connection_moved: z.boolean(),
});
export type ThemeUpgradeRun = z.infer<typeof ThemeUpgradeRunSchema>;

const keyField = z.string().check(z.trim(), z.minLength(1, 'key is required'), z.maxLength(100));
const runIdParams = z.object({ id: idString('Invalid upgrade run') });

/**
 * The page's "before anything happens" view: source and target license, edition and the version of each. The source
 * version is the store's (unknown until the upload: null); the target version is the latest release of its edition.
 */
export const previewThemeUpgrade = defineContract({
  operationId: 'previewThemeUpgrade',
  method: 'GET',
  path: '/theme-upgrades/preview',
  summary: 'Source and target license, edition and target version of a theme upgrade, before the upload',
  tags: ['theme-upgrades'],
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
  }),
});

/**
 * Multipart: target_key, source_key, move_connection ('true'/'false'), then the file `theme` (the store's export).
 * Same-edition update: source_key = target_key. Errors: 400/413/422 `{error, code}` for bad input, 404 for a key
 * that is not the caller's, 409 when another run of that key or store is in progress.
 */
export const createThemeUpgrade = defineContract({
  operationId: 'createThemeUpgrade',
  method: 'POST',
  path: '/theme-upgrades',
  summary: "Upgrade or update a store's theme export to the target key's latest release (multipart/form-data)",
  tags: ['theme-upgrades'],
  access: 'user',
  status: 201,
  multipartBody: z.object({
    target_key: z.string().check(z.maxLength(100)),
    source_key: z.string().check(z.maxLength(100)),
    move_connection: z.optional(z.enum(['true', 'false'])),
    theme: z
      .string()
      .register(globalRegistry, { contentMediaType: 'application/zip', description: "The store's theme export" }),
  }),
  response: z.object({ run: ThemeUpgradeRunSchema }),
});

export const listThemeUpgrades = defineContract({
  operationId: 'listThemeUpgrades',
  method: 'GET',
  path: '/theme-upgrades',
  summary: "The caller's theme upgrade runs, newest first (optionally those of one key, as source or target)",
  tags: ['theme-upgrades'],
  access: 'user',
  query: z.object({ key: z.optional(z.string().check(z.maxLength(100))) }),
  response: z.object({ runs: z.array(ThemeUpgradeRunSchema) }),
});

export const getThemeUpgrade = defineContract({
  operationId: 'getThemeUpgrade',
  method: 'GET',
  path: '/theme-upgrades/:id',
  summary: 'One theme upgrade run with its report',
  tags: ['theme-upgrades'],
  access: 'user',
  params: runIdParams,
  response: z.object({ run: ThemeUpgradeRunSchema }),
});

/** The output zip (owner only; 410 after 7 days). */
export const downloadThemeUpgradeZip = defineContract({
  operationId: 'downloadThemeUpgradeZip',
  produces: 'application/zip',
  method: 'GET',
  path: '/theme-upgrades/:id/theme.zip',
  summary: 'The upgraded theme zip of a run',
  tags: ['theme-upgrades'],
  access: 'user',
  params: runIdParams,
});

export const downloadThemeUpgradeReportJson = defineContract({
  operationId: 'downloadThemeUpgradeReportJson',
  method: 'GET',
  path: '/theme-upgrades/:id/report.json',
  summary: 'The report of a run as a JSON download',
  tags: ['theme-upgrades'],
  access: 'user',
  params: runIdParams,
  response: ThemeUpgradeReportSchema,
});

export const downloadThemeUpgradeReportHtml = defineContract({
  operationId: 'downloadThemeUpgradeReportHtml',
  produces: 'text/html',
  method: 'GET',
  path: '/theme-upgrades/:id/report.html',
  summary: 'The report of a run as a readable HTML page',
  tags: ['theme-upgrades'],
  access: 'user',
  params: runIdParams,
});

/** The merchant's copies of the files they had edited (owner only; 410 after 7 days). */
export const downloadThemeUpgradeReview = defineContract({
  operationId: 'downloadThemeUpgradeReview',
  produces: 'application/zip',
  method: 'GET',
  path: '/theme-upgrades/:id/review.zip',
  summary: 'Your own copies of the files you had edited, for review',
  tags: ['theme-upgrades'],
  access: 'user',
  params: runIdParams,
});

/** Days a run's files can be downloaded again. */
export const THEME_UPGRADE_RETENTION_DAYS = 7;

/** §8 "Upgrade flows" texts (the web shows them; the server answers some of them). */
export const THEME_UPGRADE_MESSAGES = {
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
} as const;
