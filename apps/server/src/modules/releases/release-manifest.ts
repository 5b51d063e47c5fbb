/** The per-file sha256 manifest of a release zip: the engine of theme-file updates detects releases by it. */
import { computeThemeManifest, type ThemeManifest } from '../../lib/theme-zip/manifest';

/** Theme-relative path (the zip's top-level folder, if any, removed) → sha256 of its bytes, hex. Files only. */
export type ReleaseManifest = ThemeManifest;

export const computeReleaseManifest = computeThemeManifest;
