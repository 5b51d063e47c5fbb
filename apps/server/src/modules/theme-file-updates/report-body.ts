/**
 * Reading a run's stored report: the contract's form (issue 20), or the form runs stored before it (issue 10:
 * `summary` of five statuses and `items` with a `status`), converted so an old run still shows what happened.
 */
import { z } from 'zod';
import {
  ThemeFileUpdateReportSchema,
  type ReportItem,
  type ThemeFileUpdateReportBody,
} from '@keyport/shared/contracts/theme-file-updates';

const LegacyReportSchema = z.object({
  items: z.array(
    z.object({
      file: z.string(),
      path: z.string().optional(),
      status: z.enum(['kept', 'changed', 'dropped', 'edited', 'added']),
      reason: z.string().optional(),
      old_value: z.unknown().optional(),
      new_value: z.unknown().optional(),
    }),
  ),
  warnings: z.array(z.string()),
});

export const LEGACY_DETECTION_SUMMARY =
  'This upgrade ran before releases were told by their files: its report lists every decision as it was made then.';

/** The stored report in the contract's form; null when it is neither form (never written by this code). */
export function readStoredReport(value: unknown): ThemeFileUpdateReportBody | null {
  const current = ThemeFileUpdateReportSchema.safeParse(value);
  if (current.success) return current.data;
  const legacy = LegacyReportSchema.safeParse(value);
  if (!legacy.success) return null;
  const items: ReportItem[] = [];
  const vendor: ThemeFileUpdateReportBody['vendor'] = { updated: [], added: [], removed: [], unchanged: 0 };
  for (const item of legacy.data.items) {
    const reason = item.reason ?? item.status;
    if (!item.path && item.status === 'added' && reason === 'new in this version') vendor.added.push(item.file);
    else if (!item.path && item.status === 'changed' && reason === 'updated to the new version') {
      vendor.updated.push(item.file);
    } else if (!item.path && item.status === 'dropped' && reason === 'no longer part of the new version') {
      vendor.removed.push(item.file);
    } else {
      items.push({
        group: item.status === 'edited' ? 'review' : item.status === 'dropped' ? 'dropped' : 'kept',
        kind: item.path === undefined ? 'file' : item.file.startsWith('locales/') ? 'text' : 'setting',
        file: item.file,
        ...(item.path === undefined ? {} : { path: item.path }),
        reason,
        ...(item.old_value === undefined ? {} : { yours: item.old_value }),
        ...(item.new_value === undefined || item.old_value !== undefined ? {} : { yours: item.new_value }),
      });
    }
  }
  const count = (group: ReportItem['group']) => items.filter((item) => item.group === group).length;
  return {
    detection: {
      release: null,
      identical_files: 0,
      release_files: 0,
      export_files: 0,
      confident: false,
      stated_version: null,
      summary: LEGACY_DETECTION_SUMMARY,
    },
    summary: { kept: count('kept'), moved: 0, review: count('review'), dropped: count('dropped') },
    items,
    vendor,
    warnings: legacy.data.warnings,
  };
}
