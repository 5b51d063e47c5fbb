/**
 * A theme zip's schema (settings, sections, blocks, colour schemes) read from its files: the release upload checks a
 * migration map against it.
 */
import { DEFAULT_THEME_ZIP_LIMITS, type ThemeZipLimits } from '../theme-zip/scan';
import { asUpdateErrors } from './errors';
import { readTexts, withTheme } from './theme-files';
import { buildThemeSchema, isSchemaSource, type ThemeSchema } from './theme-schema';

export function readThemeSchema(
  zipPath: string,
  limits: ThemeZipLimits = DEFAULT_THEME_ZIP_LIMITS,
): Promise<ThemeSchema> {
  return asUpdateErrors(() =>
    withTheme(zipPath, limits, async (theme) => buildThemeSchema(await readTexts(theme, isSchemaSource))),
  );
}
