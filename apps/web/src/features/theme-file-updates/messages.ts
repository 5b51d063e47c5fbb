import { THEME_FILE_UPDATE_MESSAGES as SHARED } from '@keyport/shared/contracts/theme-file-updates';

/** §8 "Upgrade flows" (wizard and card) and §5 "upgrade file options": the exact texts. */
export const THEME_FILE_UPDATE_MESSAGES = {
  ...SHARED,
  /** §5: 'Lite to Regular' not listed ("a message says a Regular key is needed"). */
  needRegular: 'You need a Regular key to perform this upgrade',
} as const;
