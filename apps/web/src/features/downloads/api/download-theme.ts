import { DOWNLOAD_MESSAGES, downloadWithToken, getReleases, proxyDownload } from '@keyport/shared/contracts/releases';
import { callApi, callApiForResponse } from '../../../lib/api-client';

/** §8 "Download" texts. */
export const DOWNLOAD_TEXT = {
  ...DOWNLOAD_MESSAGES,
  fallbackWarning:
    'The theme was downloaded without your token. Paste the token into the theme settings (License section) manually.',
  defaultFileName: 'theme.zip',
} as const;

export class DownloadError extends Error {
  override name = 'DownloadError';
  constructor(
    message: string,
    /** Where the person can still get the file by hand, once both automatic downloads failed. */
    readonly manualLink: string | null = null,
  ) {
    super(message);
  }
}

export type Progress = (fraction: number | null) => void;

function fileNameOf(response: Response): string {
  const header = response.headers.get('content-disposition') ?? '';
  const match = /filename\*?=(?:UTF-8'')?"?([^";]+)"?/i.exec(header);
  return match?.[1] ? decodeURIComponent(match[1]) : DOWNLOAD_TEXT.defaultFileName;
}

/** Reads the body chunk by chunk, reporting progress when the server sent a Content-Length. */
async function readWithProgress(response: Response, onProgress: Progress): Promise<Blob> {
  const total = Number(response.headers.get('content-length')) || 0;
  if (!response.body) return response.blob();
  const reader = response.body.getReader();
  const chunks: Uint8Array<ArrayBuffer>[] = [];
  let received = 0;
  onProgress(total ? 0 : null);
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    received += value.byteLength;
    if (total) onProgress(Math.min(1, received / total));
  }
  if (total && received !== total) throw new Error('The download was cut off');
  return new Blob(chunks, { type: 'application/zip' });
}

function saveFile(blob: Blob, fileName: string) {
  const url = URL.createObjectURL(blob);
  const anchor = document.createElement('a');
  anchor.href = url;
  anchor.download = fileName;
  document.body.append(anchor);
  anchor.click();
  anchor.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

export interface DownloadOutcome {
  withToken: boolean;
  fileName: string;
  version: string;
}

/**
 * The §8 download flow: fetch the release info, download the zip with the token inside; when that fails, say so and
 * fall back to the zip without the token; when that fails too, give the manual link.
 */
export async function downloadTheme(
  input: { licenseKey: string; token: string | null; licenseType: string },
  onProgress: Progress,
  onFallback: () => void,
): Promise<DownloadOutcome> {
  let link: string;
  let version: string;
  try {
    const { result } = await callApi(getReleases, { body: { key: input.licenseKey } });
    link = result.download_link;
    version = result.version;
  } catch {
    throw new DownloadError(DOWNLOAD_TEXT.versionInfoFailed);
  }
  if (!link) throw new DownloadError(DOWNLOAD_TEXT.linkMissing);
  if (!input.token) throw new DownloadError(DOWNLOAD_TEXT.tokenMissing);

  try {
    const response = await callApiForResponse(downloadWithToken, {
      body: { downloadUrl: link, token: input.token, licenseType: input.licenseType },
    });
    const fileName = fileNameOf(response);
    saveFile(await readWithProgress(response, onProgress), fileName);
    return { withToken: true, fileName, version };
  } catch {
    onFallback();
  }

  try {
    onProgress(null);
    const response = await callApiForResponse(proxyDownload, { body: { url: link } });
    const fileName = fileNameOf(response);
    saveFile(await readWithProgress(response, onProgress), fileName);
    return { withToken: false, fileName, version };
  } catch {
    throw new DownloadError(DOWNLOAD_TEXT.failedCompletely, link);
  }
}
