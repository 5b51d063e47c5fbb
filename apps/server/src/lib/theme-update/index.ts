export type { KnownRelease } from './detect-release';
export { ThemeUpdateError, type ThemeUpdateErrorCode } from './errors';
export { checkMigrationMap } from './migration-map';
export type * from './report';
export { reportToHtml } from './report-html';
export { baseThemeName, readThemeInfo } from './theme-info';
export { readThemeSchema } from './theme-schema-file';
export { reviewZipPathFor, updateTheme, type ThemeUpdateInput, type UpdatePhase } from './theme-update';
