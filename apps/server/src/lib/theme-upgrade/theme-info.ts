import { TIERS, type Tier } from '@keyport/shared/domain/tiers';

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
