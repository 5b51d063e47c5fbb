import {
  downloadThemeFileUpdateReportHtml,
  downloadThemeFileUpdateReportJson,
  downloadThemeFileUpdateReview,
  downloadThemeFileUpdateZip,
} from '@keyport/shared/contracts/theme-file-updates';
import { callApiForResponse } from '../../../lib/api-client';
import { saveFileResponse as saveFile } from '../../../lib/save-file-response';

export type RunFile = 'theme' | 'json' | 'html' | 'review';

const CONTRACTS = {
  theme: downloadThemeFileUpdateZip,
  json: downloadThemeFileUpdateReportJson,
  html: downloadThemeFileUpdateReportHtml,
  review: downloadThemeFileUpdateReview,
} as const;
// The server's names, `theme-upgrade-<id>-…`, kept for the merchant through the rename (ADR 044).
const FALLBACK_NAMES: Record<RunFile, (id: number) => string> = {
  theme: (id) => `theme-upgrade-${id}.zip`,
  json: (id) => `theme-upgrade-${id}-report.json`,
  html: (id) => `theme-upgrade-${id}-report.html`,
  review: (id) => `theme-upgrade-${id}-your-edited-files.zip`,
};

/** Downloads one of a run's files with the session (the links need it), under the server's file name. */
export async function downloadRunFile(runId: number, file: RunFile): Promise<void> {
  const response = await callApiForResponse(CONTRACTS[file], { params: { id: String(runId) } });
  await saveFile(response, FALLBACK_NAMES[file](runId));
}
