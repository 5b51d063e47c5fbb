/** §8 "Upgrade flows" (wizard and card): the exact texts, and §5 "upgrade file options". */
export const THEME_UPGRADE_MESSAGES = {
  loadOptionsFailed: 'Failed to load upgrade options',
  checkOptionsFailed: 'Failed to check upgrade options',
  noHigherTier: 'No higher-tier licenses found. You need a REGULAR or PRO license to upgrade LITE theme files.',
  noUpgradeForLevel: 'No upgrade available for your license level',
  selectSourceType: 'Please select a license type to upgrade your theme from.',
  noValidSource: 'Could not find a valid source license for the selected type.',
  needPro: 'You need a Pro key to perform this upgrade',
  needRegular: 'You need a Regular key to perform this upgrade',
} as const;
