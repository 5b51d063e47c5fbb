/** The engine's report in the contract's form: counts, then one item per decision (setting, section, file, locale). */
import type { ReportItem, ThemeUpgradeReportBody } from '@keyport/shared/contracts/theme-upgrades';
import type { ThemeUpgradeReport } from '../../lib/theme-upgrade';

export const EDITED_REASON = 'edited by you — review';

export function toReportBody(report: ThemeUpgradeReport): ThemeUpgradeReportBody {
  const items: ReportItem[] = [];
  const settingPath = (scope: string, id: string) => `${scope}.${id}`;
  for (const entry of report.settings.kept) {
    items.push({ file: entry.file, path: settingPath(entry.scope, entry.id), status: 'kept', new_value: entry.value });
  }
  for (const entry of report.settings.changed) {
    items.push({
      file: entry.file,
      path: settingPath(entry.scope, entry.id),
      status: 'changed',
      reason: entry.note,
      new_value: entry.value,
    });
  }
  for (const entry of report.settings.dropped) {
    items.push({
      file: entry.file,
      path: settingPath(entry.scope, entry.id),
      status: 'dropped',
      reason: entry.reason,
      old_value: entry.oldValue,
    });
  }
  for (const entry of report.sections.kept) {
    items.push({ file: entry.file, path: entry.scope, status: 'kept', reason: `type ${entry.type}` });
  }
  for (const entry of report.sections.dropped) {
    items.push({
      file: entry.file,
      path: entry.scope,
      status: 'dropped',
      reason: entry.reason,
      old_value: entry.oldValue,
    });
  }
  for (const entry of report.locales.kept) {
    items.push({ file: entry.file, path: entry.key, status: 'kept', new_value: entry.value });
  }
  for (const entry of report.locales.dropped) {
    items.push({ file: entry.file, path: entry.key, status: 'dropped', reason: entry.reason, old_value: entry.value });
  }
  const files = report.files;
  for (const file of files.added) items.push({ file, status: 'added', reason: 'added by you — copied as it is' });
  for (const file of files.edited) items.push({ file, status: 'edited', reason: EDITED_REASON });
  for (const file of files.unverified) {
    items.push({ file, status: 'edited', reason: `${EDITED_REASON} (differs from the new version)` });
  }
  for (const file of files.updated) items.push({ file, status: 'changed', reason: 'updated to the new version' });
  for (const file of files.removedInTarget) {
    items.push({ file, status: 'dropped', reason: 'no longer part of the new version' });
  }
  for (const file of files.kept)
    items.push({ file, status: 'kept', reason: 'the same in your theme and the new version' });
  for (const file of files.newInTarget) items.push({ file, status: 'added', reason: 'new in this version' });
  for (const file of files.merged) items.push({ file, status: 'changed', reason: 'merged setting by setting' });

  const warnings: string[] = [];
  if (!report.originalKnown) {
    warnings.push(
      "The original release of your theme's version is not available: files that differ from the new version are listed for review.",
    );
  }
  const count = (status: ReportItem['status']) => items.filter((item) => item.status === status).length;
  return {
    summary: {
      kept: count('kept'),
      changed: count('changed'),
      dropped: count('dropped'),
      edited: count('edited'),
      added: count('added'),
    },
    items,
    warnings,
  };
}
