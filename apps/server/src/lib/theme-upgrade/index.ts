export { ThemeUpgradeError, type ThemeUpgradeErrorCode } from './errors';
export type * from './report';
export { reportToHtml } from './report-html';
export { readThemeInfo, reviewZipPathFor, upgradeTheme, type ThemeUpgradeInput } from './theme-upgrade';
