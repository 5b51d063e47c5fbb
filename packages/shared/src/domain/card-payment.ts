/**
 * §8 "Card payment", "Payment provider setup" and "Token redemption" texts; §5 upgrade-token rules; the sandbox
 * card field's checks and Stripe's test-card outcomes (issue 8). ADR 012.
 */
import type { Tier } from './tiers';
import { findUpgradePath, type UpgradePath } from './upgrade-paths';

/** §8 card payment and payment-provider setup texts. */
export const CARD_PAYMENT_MESSAGES = {
  cardUnavailable: 'Card details are not available. Please refresh and try again.',
  noPriceId: (tier: Tier | string) => `No Price ID configured for upgrade to ${tier}. Please contact support.`,
  createFailed: (statusText: string) => `Failed to create payment intent: ${statusText}`,
  missingClientSecret: 'Invalid payment intent response - missing client_secret',
  confirmationFailed: 'Payment confirmation failed. Please try again.',
  unexpected: 'An unexpected error occurred during payment.',
  /** §8 setup: the spec describes this one (names the provider, carries the status) without its words. */
  configFetchFailed: (status: number | string) => `Failed to load Stripe configuration: ${status}`,
  /** §8 setup: described, not worded, by the spec. */
  publishableKeyMissing: 'Stripe publishable key not found in the configuration response.',
  providerInitFailed: 'Could not initialize payment provider. Please try again later.',
} as const;

function nonBlank(text: string | null | undefined): string | null {
  const trimmed = text?.trim();
  return trimmed ? trimmed : null;
}

/** §8: a failed `POST /stripe/payment-intents` shows the server's message, else 'Failed to create payment intent: …'. */
export function paymentIntentFailureMessage(failure: {
  serverMessage?: string | null;
  statusText?: string | null;
  status?: number;
}): string {
  const server = nonBlank(failure.serverMessage);
  if (server) return server;
  return CARD_PAYMENT_MESSAGES.createFailed(nonBlank(failure.statusText) ?? String(failure.status ?? 'network error'));
}

/** §8: the card provider's message, or 'Payment confirmation failed. Please try again.'. */
export function confirmationFailureMessage(providerMessage: string | null | undefined): string {
  return nonBlank(providerMessage) ?? CARD_PAYMENT_MESSAGES.confirmationFailed;
}

/** §5 and §8 token-redemption texts. */
export const TOKEN_MESSAGES = {
  required: 'Please enter your upgrade token',
  selectType: 'Please select an upgrade type first',
  invalidPath: 'Invalid upgrade path for token redemption',
  failed: 'Failed to upgrade with token',
  unexpected: 'An unexpected error occurred',
} as const;

export type TokenRedemptionCheck =
  | { ok: true; token: string; path: UpgradePath }
  | { ok: false; message: (typeof TOKEN_MESSAGES)[keyof typeof TOKEN_MESSAGES] };

/**
 * §5 before redeeming: the trimmed token must not be blank, then an upgrade option must be selected, and it must be
 * one of the three paths (else 'Invalid upgrade path for token redemption').
 */
export function checkTokenRedemption(input: {
  token: string;
  option: { from: Tier; to: Tier } | null;
}): TokenRedemptionCheck {
  const token = input.token.trim();
  if (token === '') return { ok: false, message: TOKEN_MESSAGES.required };
  if (input.option === null) return { ok: false, message: TOKEN_MESSAGES.selectType };
  const path = findUpgradePath(input.option.from, input.option.to);
  if (path === null) return { ok: false, message: TOKEN_MESSAGES.invalidPath };
  return { ok: true, token, path };
}

/** Stripe Elements' own texts for the card field (shown under the card box, §8). */
export const CARD_FIELD_MESSAGES = {
  numberIncomplete: 'Your card number is incomplete.',
  numberInvalid: 'Your card number is invalid.',
  expiryIncomplete: "Your card's expiration date is incomplete.",
  expiryMonthInvalid: "Your card's expiration month is invalid.",
  expiryYearInvalid: "Your card's expiration year is invalid.",
  expiryPast: "Your card's expiration date is in the past.",
  cvcIncomplete: "Your card's security code is incomplete.",
  cvcInvalid: "Your card's security code is invalid.",
} as const;

/** A typed card number without spaces or dashes ('4242 4242-4242 4242' → '4242424242424242'). */
export function normalizeCardNumber(raw: string): string {
  return raw.replace(/[\s-]/g, '');
}

/** The Luhn check digit test; false for anything but digits. */
export function luhnValid(digits: string): boolean {
  if (!/^\d+$/.test(digits)) return false;
  let sum = 0;
  for (let i = 0; i < digits.length; i += 1) {
    let d = digits.charCodeAt(digits.length - 1 - i) - 48;
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}

export const CARD_NUMBER_MAX_DIGITS = 19;

/** As the field shows it: digits only, at most 19, in groups of 4 ('4242424242424242' → '4242 4242 4242 4242'). */
export function formatCardNumber(raw: string): string {
  const digits = raw.replace(/\D/g, '').slice(0, CARD_NUMBER_MAX_DIGITS);
  return digits.replace(/(\d{4})(?=\d)/g, '$1 ');
}

/** American Express: 15 digits and a 4-digit code; Diners Club (36…): 14 digits; others 16 digits, 3-digit code. */
function cardLengths(digits: string): { number: number; cvc: number } {
  if (/^3[47]/.test(digits)) return { number: 15, cvc: 4 };
  if (/^36/.test(digits)) return { number: 14, cvc: 3 };
  return { number: 16, cvc: 3 };
}

export type CardField = 'number' | 'expiry' | 'cvc';
export interface CardFieldInput {
  number: string;
  /** 'MM / YY', 'MM/YY', 'MMYY' or 'MM/YYYY'. */
  expiry: string;
  cvc: string;
}
export interface CardFieldState {
  /** Number, expiry and code are all filled and valid: the pay button may enable (§5). */
  complete: boolean;
  /** The first problem of a part the person started typing (number, then expiry, then code); empty parts are none. */
  error: string | null;
  field: CardField | null;
}

function numberError(digits: string): string | null {
  if (!/^\d+$/.test(digits)) return CARD_FIELD_MESSAGES.numberInvalid;
  const expected = cardLengths(digits).number;
  if (digits.length < expected) return CARD_FIELD_MESSAGES.numberIncomplete;
  if (digits.length > expected || !luhnValid(digits)) return CARD_FIELD_MESSAGES.numberInvalid;
  return null;
}

/** The card is good through the last day of its expiry month (UTC). */
function expiryError(expiry: string, now: Date): string | null {
  const digits = expiry.replace(/\D/g, '');
  if (digits.length >= 2) {
    const month = Number(digits.slice(0, 2));
    if (month < 1 || month > 12) return CARD_FIELD_MESSAGES.expiryMonthInvalid;
  }
  if (digits.length !== 4 && digits.length !== 6) return CARD_FIELD_MESSAGES.expiryIncomplete;
  const month = Number(digits.slice(0, 2));
  const year = digits.length === 4 ? 2000 + Number(digits.slice(2)) : Number(digits.slice(2));
  const thisYear = now.getUTCFullYear();
  const thisMonth = now.getUTCMonth() + 1;
  if (year < thisYear || (year === thisYear && month < thisMonth)) return CARD_FIELD_MESSAGES.expiryPast;
  if (year > thisYear + 50) return CARD_FIELD_MESSAGES.expiryYearInvalid;
  return null;
}

function cvcError(cvc: string, expectedLength: number): string | null {
  if (!/^\d+$/.test(cvc)) return CARD_FIELD_MESSAGES.cvcInvalid;
  if (cvc.length < expectedLength) return CARD_FIELD_MESSAGES.cvcIncomplete;
  if (cvc.length > expectedLength) return CARD_FIELD_MESSAGES.cvcInvalid;
  return null;
}

/** The sandbox card field's state, with Stripe Elements' messages. `now` decides whether the expiry is past. */
export function cardFieldState(input: CardFieldInput, now: Date = new Date()): CardFieldState {
  const digits = normalizeCardNumber(input.number);
  const expiry = input.expiry.replace(/\s/g, '');
  const cvc = input.cvc.trim();
  const parts: Array<[CardField, string, () => string | null]> = [
    ['number', digits, () => numberError(digits)],
    ['expiry', expiry, () => expiryError(expiry, now)],
    ['cvc', cvc, () => cvcError(cvc, cardLengths(digits).cvc)],
  ];
  let complete = true;
  let first: { field: CardField; error: string } | null = null;
  for (const [field, value, check] of parts) {
    if (value === '') {
      complete = false;
      continue;
    }
    const error = check();
    if (error === null) continue;
    complete = false;
    first ??= { field, error };
  }
  return { complete, error: first?.error ?? null, field: first?.field ?? null };
}

export type SandboxDeclineCode =
  | 'card_declined'
  | 'insufficient_funds'
  | 'lost_card'
  | 'stolen_card'
  | 'expired_card'
  | 'incorrect_cvc'
  | 'processing_error'
  | 'incorrect_number';
export type SandboxCardOutcome =
  { outcome: 'succeeded' } | { outcome: 'declined'; code: SandboxDeclineCode; message: string };

/** Stripe's test cards that fail, with Stripe's messages. https://docs.stripe.com/testing#declined-payments */
export const SANDBOX_DECLINED_CARDS: Readonly<Record<string, { code: SandboxDeclineCode; message: string }>> =
  Object.freeze({
    '4000000000000002': { code: 'card_declined', message: 'Your card was declined.' },
    '4000000000009995': { code: 'insufficient_funds', message: 'Your card has insufficient funds.' },
    '4000000000009987': { code: 'lost_card', message: 'Your card was declined.' },
    '4000000000009979': { code: 'stolen_card', message: 'Your card was declined.' },
    '4000000000000069': { code: 'expired_card', message: 'Your card has expired.' },
    '4000000000000127': { code: 'incorrect_cvc', message: "Your card's security code is incorrect." },
    '4000000000000119': {
      code: 'processing_error',
      message: 'An error occurred while processing your card. Try again in a little bit.',
    },
  });

const INCORRECT_NUMBER = { code: 'incorrect_number', message: 'Your card number is incorrect.' } as const;

/**
 * What the sandbox does with a card number, as Stripe's test mode does: the listed test cards fail with their
 * message, every other Luhn-valid number of 12–19 digits succeeds (4242 4242 4242 4242 among them), anything else is
 * 'Your card number is incorrect.'.
 */
export function sandboxCardOutcome(cardNumber: string): SandboxCardOutcome {
  const digits = normalizeCardNumber(cardNumber);
  if (!/^\d{12,19}$/.test(digits) || !luhnValid(digits)) return { outcome: 'declined', ...INCORRECT_NUMBER };
  const declined = Object.hasOwn(SANDBOX_DECLINED_CARDS, digits) ? SANDBOX_DECLINED_CARDS[digits] : undefined;
  return declined ? { outcome: 'declined', ...declined } : { outcome: 'succeeded' };
}
