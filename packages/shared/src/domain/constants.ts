/** §9 "Business constants and limits": delays (milliseconds) and limits used across the portal. */

/** §9: search box debounce. */
export const SEARCH_DEBOUNCE_MS = 300;
/** §4/§9: VAT ID auto-verification starts 1 second after the input pauses… */
export const VAT_VERIFY_DEBOUNCE_MS = 1000;
/** …once the ID is at least 8 characters. */
export const VAT_MIN_LENGTH = 8;
/** §4/§9: the copy button shows its confirmation for 3 seconds. */
export const COPY_CONFIRM_MS = 3000;
/** §9: edit-panel auto-focus delay. */
export const EDIT_PANEL_FOCUS_DELAY_MS = 100;
/** §7/§9: delay before navigating to my-keys after adding a key. */
export const NAVIGATE_AFTER_ADD_KEY_MS = 100;
/** §9: delay before opening follow-up dialogs. */
export const FOLLOW_UP_DIALOG_DELAY_MS = 150;
/** §9: dashboard refresh after credit or redeem events. */
export const REFRESH_AFTER_CREDITS_MS = 500;
/** §9: delay after a store report. */
export const AFTER_REPORT_MS = 200;
/** §8/§9: duration of the fallback-download warning toast. */
export const FALLBACK_DOWNLOAD_TOAST_MS = 8000;
/** §5/§9: a report needs exactly 5 stores (and grants 1 credit). */
export const REPORT_STORE_COUNT = 5;
