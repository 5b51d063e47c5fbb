/** The theme-file-update dialogs the dashboard opens, in one on-demand chunk (one import site, one preload list). */
export { default as ThemeFileUpdateLauncher } from './components/theme-file-update-launcher';
export { UpgradeThemeFileDialog } from './components/upgrade-theme-file-dialog';
