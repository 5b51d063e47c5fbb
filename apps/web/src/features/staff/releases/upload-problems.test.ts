import { describe, expect, it } from 'vitest';
import { ApiError, NETWORK_ERROR_CODE, NETWORK_ERROR_MESSAGE } from '../../../lib/api-client';
import { checkMigrationMapFile, checkReleaseFile, uploadProblemOf } from './upload-problems';

describe('uploadProblemOf', () => {
  it.each([
    [400, 'invalid_zip', 'not_a_zip', 'Not a zip file we can read'],
    [400, 'encrypted_entry', 'not_a_zip', 'Not a zip file we can read'],
    [400, 'not_a_theme', 'not_a_theme', 'Not a Shopify theme'],
    [400, 'multiple_themes', 'not_a_theme', 'Not a Shopify theme'],
    [413, 'zip_too_large', 'too_large', 'Too large'],
    [400, 'uncompressed_too_large', 'too_large', 'Too large'],
    [413, 'payload_too_large', 'too_large', 'Too large'],
    [400, 'unsafe_entry_path', 'bad_paths', 'Unsafe file paths'],
    [400, 'unsupported_entry_type', 'bad_entries', 'Links or special files'],
    [400, 'invalid_migration_map', 'migration_map', 'Migration map'],
    [409, 'conflict', 'version', 'Version'],
    [400, 'bad_request', 'other', 'Upload refused'],
  ])('%i %s is %s', (status, code, kind, title) => {
    expect(uploadProblemOf(new ApiError(status, 'The server says why.', code))).toEqual({
      kind,
      title,
      detail: 'The server says why.',
    });
  });

  it('a network failure keeps its own message', () => {
    expect(uploadProblemOf(new ApiError(0, NETWORK_ERROR_MESSAGE, NETWORK_ERROR_CODE))).toMatchObject({
      kind: 'other',
      detail: NETWORK_ERROR_MESSAGE,
    });
  });
});

describe('checkReleaseFile', () => {
  it('asks for a file, refuses a name without .zip and lets a zip through', () => {
    expect(checkReleaseFile(null)).toMatchObject({ kind: 'other' });
    expect(checkReleaseFile(new File(['x'], 'theme.tar.gz'))).toMatchObject({
      kind: 'not_a_zip',
      detail: 'theme.tar.gz is not a .zip file.',
    });
    expect(checkReleaseFile(new File(['x'], 'Theme.ZIP'))).toBeNull();
  });
});

describe('checkMigrationMapFile', () => {
  it('lets no file and a small .json through, refuses another name or a file over 32 KB', () => {
    expect(checkMigrationMapFile(null)).toBeNull();
    expect(checkMigrationMapFile(new File(['{}'], 'map.JSON'))).toBeNull();
    expect(checkMigrationMapFile(new File(['{}'], 'map.yaml'))).toMatchObject({
      kind: 'migration_map',
      detail: 'map.yaml is not a .json file.',
    });
    expect(checkMigrationMapFile(new File(['x'.repeat(33 * 1024)], 'map.json'))).toMatchObject({
      detail: 'map.json is larger than 32 KB.',
    });
  });
});
