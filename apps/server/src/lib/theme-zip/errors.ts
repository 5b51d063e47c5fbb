/** Why a theme zip (or its settings file) was refused. Stable values: the HTTP layer maps them. */
export type ThemeZipErrorCode =
  | 'zip_not_found'
  | 'invalid_zip'
  | 'zip64_unsupported'
  | 'encrypted_entry'
  | 'unsafe_entry_path'
  | 'unsupported_entry_type'
  | 'unsupported_compression'
  | 'duplicate_entry'
  | 'zip_too_large'
  | 'too_many_entries'
  | 'uncompressed_too_large'
  | 'not_a_theme'
  | 'multiple_themes'
  | 'outside_theme_folder'
  | 'settings_too_large'
  | 'invalid_settings_json'
  | 'output_too_large'
  | 'source_changed';

/** A theme zip problem with an English message that can be shown to staff. */
export class ThemeZipError extends Error {
  override readonly name = 'ThemeZipError';

  constructor(
    readonly code: ThemeZipErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** True for a ThemeZipError, optionally with the given code. */
export function isThemeZipError(value: unknown, code?: ThemeZipErrorCode): value is ThemeZipError {
  return value instanceof ThemeZipError && (code === undefined || value.code === code);
}
