import { useMutation, useQueryClient } from '@tanstack/react-query';
import {
  staffListReleases,
  uploadRelease as uploadReleaseContract,
  type Release,
} from '@keyport/shared/contracts/releases';
import type { Tier } from '@keyport/shared/domain/tiers';
import { ApiError, UNKNOWN_ERROR_CODE } from '../../../../lib/api-client';
import { queryKeys } from '../../../../lib/query-keys';
import { uploadWithProgress } from '../../../../lib/upload-with-progress';

export interface UploadReleaseInput {
  edition: Tier;
  version: string;
  notes: string;
  reason: string;
  /** The migration map (a JSON file), when staff chose one: sent as the text field `migration_map`. */
  migrationMap?: File | null;
  file: File;
  onProgress?: (fraction: number) => void;
  signal?: AbortSignal;
}

/** POST /staff/releases (multipart), with upload progress. Failures throw ApiError like callApi. */
export async function uploadRelease(input: UploadReleaseInput): Promise<Release> {
  const form = new FormData();
  // The fields before the file: the server reads them before it streams the file to disk.
  form.append('edition', input.edition);
  form.append('version', input.version);
  form.append('notes', input.notes);
  form.append('reason', input.reason);
  if (input.migrationMap) form.append('migration_map', await readText(input.migrationMap));
  form.append('file', input.file, input.file.name);
  const body = await uploadWithProgress({
    method: uploadReleaseContract.method,
    path: uploadReleaseContract.path,
    form,
    onProgress: input.onProgress,
    signal: input.signal,
  });
  if (!body.release) throw new ApiError(500, 'The server answered without the release.', UNKNOWN_ERROR_CODE);
  return body.release as Release;
}

/** A small file's text (FileReader: every browser has it, and so does the test DOM). */
function readText(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result ?? ''));
    reader.onerror = () => reject(reader.error ?? new Error(`${file.name} could not be read.`));
    reader.readAsText(file);
  });
}

/** The upload as a mutation: on success every release list is refetched. */
export function useUploadRelease() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: uploadRelease,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.staff(staffListReleases.operationId) }),
  });
}
