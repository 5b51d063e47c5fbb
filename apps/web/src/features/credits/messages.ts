/** The credits dialogs' texts: §8 "Dashboard" (redeem, products, report, credits dialog) verbatim, and our own. */
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
  enterAllStores: 'Please enter all 5 store domains.',
  reportAccepted: 'Credit added! All 5 stores were valid.',
  reportRejected: 'Not all stores qualified. Check the validation status below.',
  reportFailed: 'Please try again later.',
  /** §9: what counts, and that staff review it. */
  reportRules:
    'Report 5 stores running an unlicensed copy of the theme. Staff review every report; false reports may lead to account restrictions.',
} as const;

/** §5: 'Auto-filled {n} store URLs' (only when more than one was found). */
export const autoFilled = (count: number) => `Auto-filled ${count} store URLs`;

/** "N credit(s)". */
export const creditsLabel = (count: number) => `${count} ${count === 1 ? 'credit' : 'credits'}`;
