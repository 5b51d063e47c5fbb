import { TIERS, type Tier } from '@keyport/shared/domain/tiers';
import { DEFAULT_THEME_ZIP_LIMITS, type ThemeZipLimits } from '../theme-zip/scan';
import { asUpdateErrors } from './errors';
import { parseThemeJson } from './json-text';
import type { ThemeInfo } from './report';
import { isPlainObject } from './setting-types';
import { withTheme, type OpenTheme } from './theme-files';
import { SETTINGS_SCHEMA_FILE } from './theme-schema';

export const LICENSE_SNIPPET_FILE = 'snippets/license-check.liquid';

/**
 * The edition of a theme: a word of its `theme_info.theme_name` ("Aurora Pro"), else the vendor's marker in
 * snippets/license-check.liquid (`Edition: PRO`, as every Keyport release carries). null when neither says.
 */
export function editionFromThemeFiles(themeName: string | null, licenseSnippet: string | undefined): Tier | null {
  const fromName = themeName?.match(/\b(lite|regular|pro)\b/i)?.[1]?.toUpperCase();
  if (fromName !== undefined && (TIERS as readonly string[]).includes(fromName)) return fromName as Tier;
  const fromSnippet = licenseSnippet?.match(/\bEdition:\s*(LITE|REGULAR|PRO)\b/)?.[1];
  return fromSnippet === undefined ? null : (fromSnippet as Tier);
}

/** Edition, version and name a theme states (settings_schema.json `theme_info`, the license snippet). */
export async function themeInfoOf(theme: OpenTheme): Promise<ThemeInfo> {
  const schemaText = await theme.text(SETTINGS_SCHEMA_FILE);
  let info: Record<string, unknown> | undefined;
  if (schemaText !== undefined) {
    try {
      const schema = parseThemeJson(schemaText, SETTINGS_SCHEMA_FILE);
      if (Array.isArray(schema)) {
        info = schema.find(
          (group): group is Record<string, unknown> => isPlainObject(group) && group.name === 'theme_info',
        );
      }
    } catch {
      info = undefined;
    }
  }
  const themeName =
    typeof info?.theme_name === 'string' && info.theme_name.trim() !== '' ? info.theme_name.trim() : null;
  const version =
    typeof info?.theme_version === 'string' && info.theme_version.trim() !== '' ? info.theme_version.trim() : null;
  return {
    edition: editionFromThemeFiles(themeName, await theme.text(LICENSE_SNIPPET_FILE)),
    version,
    themeName,
  };
}

/** Reads a zip's facts without building anything (for the page that names them before the upgrade). */
export async function readThemeInfo(
  zipPath: string,
  limits: ThemeZipLimits = DEFAULT_THEME_ZIP_LIMITS,
): Promise<ThemeInfo> {
  return asUpdateErrors(() => withTheme(zipPath, limits, themeInfoOf));
}

/** The theme's name without edition words, to tell "the same theme" ("Aurora Pro" and "Aurora"). */
export function baseThemeName(themeName: string): string {
  return themeName
    .replace(/\b(lite|regular|pro)\b/gi, '')
    .replace(/[\s\-–—_]+/g, ' ')
    .trim()
    .toLowerCase();
}
