import type { ThemeFileUpdateRun } from '@keyport/shared/contracts/theme-file-updates';
import { createThemeFileUpdate } from '@keyport/shared/contracts/theme-file-updates';
import { ApiError, UNKNOWN_ERROR_CODE } from '../../../lib/api-client';
import { uploadWithProgress } from '../../../lib/upload-with-progress';

export interface UploadThemeInput {
  sourceKey: string;
  targetKey: string;
  moveConnection: boolean;
  /** The store the customer agreed loses its license (the target key's, when it licenses another store). */
  consentStore?: string | null;
  file: File;
  /** 0..1 as the bytes go up (XHR upload progress; fetch has no upload progress). */
  onProgress?: (fraction: number) => void;
  signal?: AbortSignal;
}

/** POST /theme-file-updates (multipart), with upload progress. Failures throw ApiError like callApi. */
export async function uploadTheme(input: UploadThemeInput): Promise<ThemeFileUpdateRun> {
  const form = new FormData();
  // The fields before the file: the server reads them before it streams the file to disk.
  form.append('source_key', input.sourceKey);
  form.append('target_key', input.targetKey);
  form.append('move_connection', input.moveConnection ? 'true' : 'false');
  if (input.consentStore) form.append('consent_store', input.consentStore);
  form.append('theme', input.file, input.file.name);
  const body = await uploadWithProgress({
    method: createThemeFileUpdate.method,
    path: createThemeFileUpdate.path,
    form,
    onProgress: input.onProgress,
    signal: input.signal,
  });
  if (!body.run) throw new ApiError(500, 'The server answered without the run.', UNKNOWN_ERROR_CODE);
  return body.run as ThemeFileUpdateRun;
}
