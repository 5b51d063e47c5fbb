/** The theme-upgrade dialogs the dashboard opens, in one on-demand chunk (one import site, one preload list). */
export { default as ThemeUpgradeLauncher } from './components/theme-upgrade-launcher';
export { UpgradeThemeFileDialog } from './components/upgrade-theme-file-dialog';
