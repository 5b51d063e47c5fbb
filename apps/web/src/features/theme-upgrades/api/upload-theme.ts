import type { ThemeUpgradeRun } from '@keyport/shared/contracts/theme-upgrades';
import { createThemeUpgrade } from '@keyport/shared/contracts/theme-upgrades';
import { ApiError, NETWORK_ERROR_CODE, NETWORK_ERROR_MESSAGE, UNKNOWN_ERROR_CODE } from '../../../lib/api-client';
import { getSessionToken } from '../../../lib/session-token';

export interface UploadThemeInput {
  sourceKey: string;
  targetKey: string;
  moveConnection: boolean;
  file: File;
  /** 0..1 as the bytes go up (XHR upload progress; fetch has no upload progress). */
  onProgress?: (fraction: number) => void;
  signal?: AbortSignal;
}

/**
 * POST /theme-upgrades (multipart) through XMLHttpRequest, for its upload progress events. Failures throw ApiError
 * like callApi: the server's `{ error, code }` with its status, or a network failure (status 0).
 */
export function uploadTheme(input: UploadThemeInput): Promise<ThemeUpgradeRun> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open(createThemeUpgrade.method, createThemeUpgrade.path);
    xhr.setRequestHeader('accept', 'application/json');
    const token = getSessionToken();
    if (token) xhr.setRequestHeader('authorization', `Token ${token}`);
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable && event.total > 0) input.onProgress?.(event.loaded / event.total);
    };
    xhr.onerror = () => reject(new ApiError(0, NETWORK_ERROR_MESSAGE, NETWORK_ERROR_CODE));
    xhr.onabort = () => reject(new DOMException('The upload was cancelled', 'AbortError'));
    xhr.onload = () => {
      let payload: unknown = null;
      try {
        payload = JSON.parse(xhr.responseText);
      } catch {
        payload = null;
      }
      const body = payload && typeof payload === 'object' ? (payload as Record<string, unknown>) : {};
      if (xhr.status >= 200 && xhr.status < 300 && body.run) {
        input.onProgress?.(1);
        resolve(body.run as ThemeUpgradeRun);
        return;
      }
      const message = typeof body.error === 'string' ? body.error : `Request failed (${xhr.status} ${xhr.statusText})`;
      const code = typeof body.code === 'string' ? body.code : UNKNOWN_ERROR_CODE;
      reject(new ApiError(xhr.status, message, code, xhr.statusText));
    };
    input.signal?.addEventListener('abort', () => xhr.abort(), { once: true });
    const form = new FormData();
    // The fields before the file: the server reads them before it streams the file to disk.
    form.append('source_key', input.sourceKey);
    form.append('target_key', input.targetKey);
    form.append('move_connection', input.moveConnection ? 'true' : 'false');
    form.append('theme', input.file, input.file.name);
    xhr.send(form);
  });
}
