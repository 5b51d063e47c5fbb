/** Every localStorage key the web app uses, in one place. */
export const STORAGE_KEYS = {
  sessionToken: 'keyport.session',
  homepageData: 'keyport.homepageData',
  themeUpgradeInfo: 'themeUpgradeInfo',
  upgradeInfo: 'upgradeInfo',
} as const;
