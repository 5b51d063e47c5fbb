import type { CreditPack } from '@keyport/shared/contracts/credits';
import type { BillingInput } from '@keyport/shared/contracts/payments';
import { CARD_PAYMENT_MESSAGES } from '@keyport/shared/domain/card-payment';
import { creditsLabel } from '@keyport/shared/domain/credit-packs';
import { createCreditPackPaymentIntent } from '../api/create-credit-pack-payment-intent';
import { createCreditPackPaypalOrder } from '../api/create-credit-pack-paypal-order';
import type { CardConfirmer } from '../payment/card-confirmer';
import { payByCard, type PaymentOutcome } from '../payment/pay-by-card';
import { startPaypalCheckout, WALLET_MESSAGES, type StartedPaypalOrder } from '../payment/pay-with-paypal';

/** The credits checkout's own texts (the spec words none of them; ADR 025). */
export const CREDITS_CHECKOUT_MESSAGES = {
  packsFailed: 'Failed to load credit packs',
  noPacks: 'No credit packs are on sale right now.',
  /** A pack without a provider price id cannot be paid by card. */
  noPackPrice: 'This credit pack has no price configured. Please contact support.',
  added: (credits: number) => `${creditsLabel(credits)} added`,
  balance: (balance: number) => `Your balance is now ${creditsLabel(balance)}.`,
  /** The PayPal return toast of a credit-pack order (the upgrade's keeps §8's text). */
  paypalCompleted: (credits: number) =>
    `Payment completed. ${credits} ${credits === 1 ? 'credit was' : 'credits were'} added to your account.`,
} as const;

/** What a confirmed credit-pack payment may say after its sync, other than completed. */
export const CREDIT_PACK_FOLLOW_UP = {
  notApplied: 'Your payment went through, but the credits could not be added. Support will refund you.',
  pending: 'Your payment went through and your credits are being added. Refresh this page in a minute to see them.',
} as const;

/** §4 "Payment" for a credit pack: POST /credits/checkout/payment-intents, then the card flow of pay-by-card.ts. */
export async function payForCreditPack(input: {
  pack: CreditPack;
  billing: BillingInput;
  confirmer: CardConfirmer | null;
}): Promise<PaymentOutcome> {
  const { pack, billing, confirmer } = input;
  if (!confirmer) return { status: 'error', message: CARD_PAYMENT_MESSAGES.cardUnavailable };
  const priceId = pack.priceId;
  if (!priceId) return { status: 'error', message: CREDITS_CHECKOUT_MESSAGES.noPackPrice };
  return payByCard({
    billing,
    confirmer,
    followUp: CREDIT_PACK_FOLLOW_UP,
    createIntent: () => createCreditPackPaymentIntent({ pack_id: pack.id, price_id: priceId, billing }),
  });
}

/** The PayPal order of a credit pack (captured by the same /stripe/paypal/capture-order as an upgrade's). */
export async function startCreditPackPaypalOrder(input: {
  pack: CreditPack;
  billing: BillingInput;
}): Promise<StartedPaypalOrder> {
  const { pack, billing } = input;
  const priceId = pack.priceId;
  if (!priceId) return { ok: false, message: WALLET_MESSAGES.noPrice };
  return startPaypalCheckout(() => createCreditPackPaypalOrder({ pack_id: pack.id, price_id: priceId, billing }));
}
