import type { BillingInput } from '@keyport/shared/contracts/payments';

export type CardConfirmation = { ok: true } | { ok: false; message: string };

/**
 * What a card field (the sandbox's or Stripe's) gives the dialog once its card is complete: a way to confirm a
 * payment intent with that card. The outcome is the provider's own message on a decline.
 */
export interface CardConfirmer {
  confirm(intent: { id: string; client_secret: string }, billing: BillingInput): Promise<CardConfirmation>;
}

/** A card field reports whether its card is complete and, when it is, how to confirm with it. */
export interface CardFieldChange {
  complete: boolean;
  confirmer: CardConfirmer | null;
}
