import { MIGRATION_MAP_MAX_BYTES } from '@keyport/shared/contracts/migration-map';
import { ApiError, serverMessage } from '../../../lib/api-client';

/** The kinds of problem the release upload form names (issue 12): each gets its own heading. */
export type UploadProblemKind =
  'not_a_zip' | 'not_a_theme' | 'too_large' | 'bad_paths' | 'bad_entries' | 'migration_map' | 'version' | 'other';

export interface UploadProblem {
  kind: UploadProblemKind;
  title: string;
  /** The server's own words. */
  detail: string;
}

const TITLES: Record<UploadProblemKind, string> = {
  not_a_zip: 'Not a zip file we can read',
  not_a_theme: 'Not a Shopify theme',
  too_large: 'Too large',
  bad_paths: 'Unsafe file paths',
  bad_entries: 'Links or special files',
  migration_map: 'Migration map',
  version: 'Version',
  other: 'Upload refused',
};

/** The theme zip checker's codes (apps/server/src/lib/theme-zip/errors.ts), by the problem they are. */
const KIND_OF_CODE: Record<string, UploadProblemKind> = {
  invalid_zip: 'not_a_zip',
  zip64_unsupported: 'not_a_zip',
  encrypted_entry: 'not_a_zip',
  unsupported_compression: 'not_a_zip',
  duplicate_entry: 'not_a_zip',
  not_a_theme: 'not_a_theme',
  multiple_themes: 'not_a_theme',
  outside_theme_folder: 'not_a_theme',
  zip_too_large: 'too_large',
  too_many_entries: 'too_large',
  uncompressed_too_large: 'too_large',
  unsafe_entry_path: 'bad_paths',
  unsupported_entry_type: 'bad_entries',
  invalid_migration_map: 'migration_map',
};

const problem = (kind: UploadProblemKind, detail: string): UploadProblem => ({ kind, title: TITLES[kind], detail });

/** What the browser can tell before sending: a file that is not named .zip is not sent. */
export function checkReleaseFile(file: File | null): UploadProblem | null {
  if (!file) return problem('other', 'Choose the theme zip to upload.');
  if (!file.name.toLowerCase().endsWith('.zip')) return problem('not_a_zip', `${file.name} is not a .zip file.`);
  return null;
}

/** The optional migration map: a .json file of at most MIGRATION_MAP_MAX_BYTES (the server checks its content). */
export function checkMigrationMapFile(file: File | null): UploadProblem | null {
  if (!file) return null;
  if (!file.name.toLowerCase().endsWith('.json')) {
    return problem('migration_map', `${file.name} is not a .json file.`);
  }
  if (file.size > MIGRATION_MAP_MAX_BYTES) {
    return problem('migration_map', `${file.name} is larger than ${MIGRATION_MAP_MAX_BYTES / 1024} KB.`);
  }
  return null;
}

/** The server's refusal of an upload, as the problem it is. */
export function uploadProblemOf(error: unknown): UploadProblem {
  const detail = serverMessage(error) ?? (error instanceof Error ? error.message : 'The upload failed.');
  if (!(error instanceof ApiError)) return problem('other', detail);
  if (error.status === 413) return problem('too_large', detail);
  if (error.status === 409) return problem('version', detail);
  return problem(KIND_OF_CODE[error.code] ?? 'other', detail);
}
