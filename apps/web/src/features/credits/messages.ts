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
  /** §9: what counts, and that staff review it (ADR 037: the credit waits for that review). */
  reportRules:
    'Report 5 stores running an unlicensed copy of the theme. Staff review every report; its credit can be spent once they approve it. False reports may lead to account restrictions.',
  /** After 'Credit added! All 5 stores were valid.' when the credit waits for staff (ADR 037). */
  reportPending: 'Your credit is pending review: you can spend it once our team approves the report.',
  creditHistory: 'Credit History',
  historyDescription: 'Every change to your credits, newest first, with the note our team left.',
  historyEmpty: 'No credit history yet.',
  historyFailed: 'Failed to load your credit history',
} as const;

/** "N credit(s)". */
export const creditsLabel = (count: number) => `${count} ${count === 1 ? 'credit' : 'credits'}`;

/** "1 credit pending review" / "2 credits pending review" (ADR 037). */
export const pendingReviewLabel = (count: number) => `${creditsLabel(count)} pending review`;
