/**
 * §4 "Credit events": the window events the credits dialogs, the credits checkout and the dashboard talk through
 * (features never import each other), and the window hook that opens the credits purchase. Dispatching is
 * synchronous; listeners decide their own delays (§9: the dashboard refreshes 500 ms after a credit or redeem event
 * and 200 ms after a report; follow-up dialogs open after 150 ms).
 */
export const CREDIT_EVENTS = {
  /** A license was bought with credits. detail: { apiKey } */
  licenseRedeemed: 'licenseRedeemed',
  /** The caller's balance changed (report granted, redeem, credits bought). detail: { balance } */
  creditsBalanceChanged: 'creditsBalanceChanged',
  /** The credits checkout closed. detail: { purchased: boolean } */
  creditsDialogClosed: 'creditsDialogClosed',
  /** Open the Earn 1 Free Credit dialog (dialog 10). detail: none */
  openReportDialog: 'openReportDialog',
} as const;

export type CreditEventName = (typeof CREDIT_EVENTS)[keyof typeof CREDIT_EVENTS];

export interface CreditEventDetail {
  licenseRedeemed: { apiKey: string };
  creditsBalanceChanged: { balance: number };
  creditsDialogClosed: { purchased: boolean };
  openReportDialog: undefined;
}

export function emitCreditEvent<N extends CreditEventName>(name: N, detail?: CreditEventDetail[N]): void {
  window.dispatchEvent(new CustomEvent(name, { detail }));
}

/** Listens to one credit event; returns the unsubscribe (for a useEffect cleanup). */
export function onCreditEvent<N extends CreditEventName>(
  name: N,
  listener: (detail: CreditEventDetail[N]) => void,
): () => void {
  const handler = (event: Event) => listener((event as CustomEvent<CreditEventDetail[N]>).detail);
  window.addEventListener(name, handler);
  return () => window.removeEventListener(name, handler);
}

/** §9 timings. */
export const CREDIT_TIMINGS = {
  refreshAfterCreditEventMs: 500,
  refreshAfterReportMs: 200,
  followUpDialogMs: 150,
} as const;

declare global {
  interface Window {
    /** §4: opens the credits purchase (team members only; absent for everyone else). */
    openCreditsDialog?: () => void;
  }
}
