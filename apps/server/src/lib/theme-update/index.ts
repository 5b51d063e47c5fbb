export type { KnownRelease } from './detect-release';
export { ThemeUpgradeError, type ThemeUpgradeErrorCode } from './errors';
export { checkMigrationMap } from './migration-map';
export type * from './report';
export { reportToHtml } from './report-html';
export { baseThemeName, readThemeInfo } from './theme-info';
export { readThemeSchema } from './theme-schema-file';
export { reviewZipPathFor, upgradeTheme, type ThemeUpgradeInput, type UpgradePhase } from './theme-upgrade';
