/**
 * The credits texts: §8 "Dashboard" (redeem, products, credits dialog) verbatim, and our own. The report's texts are
 * shared with the server (REPORT_MESSAGES in @keyport/shared/domain/store-report).
 */
export const CREDITS_TEXT = {
  redeemTitle: 'Buy License with Credits',
  reportTitle: 'Earn 1 Free Credit',
  buyCredits: 'Buy Credits',
  buyWithCredits: 'Buy With Credits',
  redeemed: 'License purchased with credits. Check your email for the key.',
  redeemFailed: 'Redeem failed',
  insufficient: 'Not enough credits. Opening credits checkout...',
  creditsDialogUnavailable: 'Please open the menu to buy credits.',
  productsErrorTitle: 'Error Loading',
  productsFailed: 'Failed to load',
  tryAgain: 'Try Again',
  noProducts: 'No Licenses Available',
  /** §9: what counts, and that staff review it. */
  reportRules:
    'Report 5 stores running an unlicensed copy of the theme. Staff review every report; false reports may lead to account restrictions.',
} as const;

/** "N credit(s)". */
export const creditsLabel = (count: number) => `${count} ${count === 1 ? 'credit' : 'credits'}`;
