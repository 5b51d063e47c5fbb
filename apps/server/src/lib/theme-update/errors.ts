import { ThemeZipError } from '../theme-zip/errors';

/**
 * Why a theme upgrade was refused. Every code is a problem with the uploaded (or stored) zips, never a server fault:
 * the route answers it as a 4xx. ThemeZipError codes (invalid_zip, unsafe_entry_path, too_many_entries,
 * uncompressed_too_large, not_a_theme …) pass through unchanged; the upgrade adds its own below.
 */
export type ThemeUpdateErrorCode =
  ThemeZipError['code'] | 'edition_mismatch' | 'theme_mismatch' | 'invalid_theme_json' | 'theme_file_too_large';

export class ThemeUpdateError extends Error {
  override readonly name = 'ThemeUpdateError';

  constructor(
    readonly code: ThemeUpdateErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** Runs `work`, turning a ThemeZipError into the ThemeUpdateError with the same code and message. */
export async function asUpdateErrors<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof ThemeZipError) throw new ThemeUpdateError(error.code, error.message, { cause: error });
    throw error;
  }
}
