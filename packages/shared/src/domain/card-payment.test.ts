import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { redeemTokenToRegular } from '../contracts/upgrades';
import {
  CARD_FIELD_MESSAGES,
  CARD_PAYMENT_MESSAGES,
  cardFieldState,
  checkTokenRedemption,
  confirmationFailureMessage,
  formatCardNumber,
  luhnValid,
  normalizeCardNumber,
  paymentIntentFailureMessage,
  SANDBOX_DECLINED_CARDS,
  sandboxCardOutcome,
  TOKEN_MESSAGES,
} from './card-payment';
import type { Tier } from './tiers';

describe('§8 card payment texts', () => {
  it('are the spec’s', () => {
    expect(CARD_PAYMENT_MESSAGES.cardUnavailable).toBe('Card details are not available. Please refresh and try again.');
    expect(CARD_PAYMENT_MESSAGES.noPriceId('REGULAR')).toBe(
      'No Price ID configured for upgrade to REGULAR. Please contact support.',
    );
    expect(CARD_PAYMENT_MESSAGES.createFailed('Bad Gateway')).toBe('Failed to create payment intent: Bad Gateway');
    expect(CARD_PAYMENT_MESSAGES.missingClientSecret).toBe('Invalid payment intent response - missing client_secret');
    expect(CARD_PAYMENT_MESSAGES.confirmationFailed).toBe('Payment confirmation failed. Please try again.');
    expect(CARD_PAYMENT_MESSAGES.unexpected).toBe('An unexpected error occurred during payment.');
    expect(CARD_PAYMENT_MESSAGES.providerInitFailed).toBe(
      'Could not initialize payment provider. Please try again later.',
    );
  });

  it('§8 setup: the config failure names the card provider and carries the status', () => {
    const message = CARD_PAYMENT_MESSAGES.configFetchFailed(503);
    expect(message).toContain('Stripe');
    expect(message).toContain('503');
    expect(CARD_PAYMENT_MESSAGES.publishableKeyMissing).toMatch(/publishable key not found in the config/);
  });

  it.each<[Parameters<typeof paymentIntentFailureMessage>[0], string]>([
    [{ serverMessage: 'You already own this tier', statusText: 'Conflict' }, 'You already own this tier'],
    [{ serverMessage: '  ', statusText: 'Bad Gateway' }, 'Failed to create payment intent: Bad Gateway'],
    [{ serverMessage: null, statusText: '', status: 500 }, 'Failed to create payment intent: 500'],
    [{}, 'Failed to create payment intent: network error'],
  ])('payment intent failure %j → %j', (failure, message) => {
    expect(paymentIntentFailureMessage(failure)).toBe(message);
  });

  it.each<[string | null | undefined, string]>([
    ['Your card was declined.', 'Your card was declined.'],
    ['', 'Payment confirmation failed. Please try again.'],
    [null, 'Payment confirmation failed. Please try again.'],
    [undefined, 'Payment confirmation failed. Please try again.'],
  ])('confirmation failure %j → %j', (provider, message) => {
    expect(confirmationFailureMessage(provider)).toBe(message);
  });
});

describe('§5/§8 upgrade tokens', () => {
  it('texts are the spec’s', () => {
    expect(TOKEN_MESSAGES).toEqual({
      required: 'Please enter your upgrade token',
      selectType: 'Please select an upgrade type first',
      invalidPath: 'Invalid upgrade path for token redemption',
      failed: 'Failed to upgrade with token',
      unexpected: 'An unexpected error occurred',
    });
  });

  const LITE_TO_REGULAR = { from: 'LITE' as Tier, to: 'REGULAR' as Tier };
  it.each<[string, Parameters<typeof checkTokenRedemption>[0], ReturnType<typeof checkTokenRedemption>]>([
    ['blank token first', { token: '  ', option: null }, { ok: false, message: 'Please enter your upgrade token' }],
    ['empty token', { token: '', option: LITE_TO_REGULAR }, { ok: false, message: 'Please enter your upgrade token' }],
    ['no option', { token: 'UPG-1', option: null }, { ok: false, message: 'Please select an upgrade type first' }],
    [
      'not a path',
      { token: 'UPG-1', option: { from: 'REGULAR', to: 'LITE' } },
      { ok: false, message: 'Invalid upgrade path for token redemption' },
    ],
    [
      'PRO to PRO',
      { token: 'UPG-1', option: { from: 'PRO', to: 'PRO' } },
      { ok: false, message: 'Invalid upgrade path for token redemption' },
    ],
    [
      'trimmed',
      { token: '  UPG-1 \n', option: LITE_TO_REGULAR },
      { ok: true, token: 'UPG-1', path: 'LITE_TO_REGULAR' },
    ],
    ['LITE to PRO', { token: 'x', option: { from: 'LITE', to: 'PRO' } }, { ok: true, token: 'x', path: 'LITE_TO_PRO' }],
  ])('%s', (_case, input, result) => {
    expect(checkTokenRedemption(input)).toEqual(result);
  });

  it('the redeem contract refuses a blank token with the same text', () => {
    const parsed = redeemTokenToRegular.body.safeParse({ upgradeKey: ' ', licenseKey: 'K' });
    expect(parsed.success ? null : parsed.error.issues[0]?.message).toBe(TOKEN_MESSAGES.required);
  });
});

describe('card number helpers', () => {
  it.each<[string, string]>([
    ['4242 4242 4242 4242', '4242424242424242'],
    ['4242-4242-4242-4242', '4242424242424242'],
    [' 4242\t4242 ', '42424242'],
    ['4242a', '4242a'],
    ['', ''],
  ])('normalizeCardNumber(%j) → %j', (raw, digits) => {
    expect(normalizeCardNumber(raw)).toBe(digits);
  });

  it.each<[string, boolean]>([
    ['4242424242424242', true],
    ['4242424242424241', false],
    ['4000000000000002', true],
    ['4000000000009995', true],
    ['378282246310005', true],
    ['30569309025904', true],
    ['79927398713', true],
    ['79927398710', false],
    ['0', true],
    ['', false],
    ['4242 4242 4242 4242', false],
    ['42a2', false],
    ['٤٢٤٢', false],
  ])('luhnValid(%j) → %s', (digits, valid) => {
    expect(luhnValid(digits)).toBe(valid);
  });

  it('a single changed digit always breaks Luhn', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^\d{16}$/), fc.nat(15), fc.integer({ min: 1, max: 9 }), (digits, index, delta) => {
        const fixed = fixLuhn(digits);
        const changed = (Number(fixed[index]) + delta) % 10;
        const other = fixed.slice(0, index) + String(changed) + fixed.slice(index + 1);
        expect(luhnValid(fixed)).toBe(true);
        expect(luhnValid(other)).toBe(false);
      }),
    );
  });

  it.each<[string, string]>([
    ['4242424242424242', '4242 4242 4242 4242'],
    ['4242 4242 4242 4242', '4242 4242 4242 4242'],
    ['42424', '4242 4'],
    ['4242', '4242'],
    ['378282246310005', '3782 8224 6310 005'],
    ['4242-42x42', '4242 4242'],
    ['12345678901234567890123', '1234 5678 9012 3456 789'],
    ['', ''],
  ])('formatCardNumber(%j) → %j', (raw, shown) => {
    expect(formatCardNumber(raw)).toBe(shown);
  });
});

/** Replace the last digit so that the number passes Luhn. */
function fixLuhn(digits: string): string {
  const body = digits.slice(0, -1);
  for (let d = 0; d <= 9; d += 1) if (luhnValid(body + String(d))) return body + String(d);
  throw new Error('unreachable');
}

describe('sandbox card field', () => {
  const NOW = new Date('2026-06-15T12:00:00Z');
  const good = { number: '4242 4242 4242 4242', expiry: '12 / 30', cvc: '123' };
  const state = (patch: Partial<typeof good>) => cardFieldState({ ...good, ...patch }, NOW);

  it('a complete card', () => {
    expect(state({})).toEqual({ complete: true, error: null, field: null });
    expect(state({ number: '378282246310005', cvc: '1234' })).toEqual({ complete: true, error: null, field: null });
    expect(state({ expiry: '06/26' }).complete).toBe(true);
    expect(state({ expiry: '0626' }).complete).toBe(true);
    expect(state({ expiry: '06/2026' }).complete).toBe(true);
  });

  it('nothing typed: incomplete, no error yet', () => {
    expect(cardFieldState({ number: '', expiry: '', cvc: '' }, NOW)).toEqual({
      complete: false,
      error: null,
      field: null,
    });
    expect(state({ cvc: '' })).toEqual({ complete: false, error: null, field: null });
  });

  it.each<[string, Partial<typeof good>, string, string]>([
    ['short number', { number: '4242 4242' }, 'number', 'Your card number is incomplete.'],
    ['short Amex', { number: '3782 822463', cvc: '1234' }, 'number', 'Your card number is incomplete.'],
    ['Luhn fails', { number: '4242 4242 4242 4241' }, 'number', 'Your card number is invalid.'],
    ['too long', { number: '4242 4242 4242 4242 4' }, 'number', 'Your card number is invalid.'],
    ['letters', { number: '4242 abcd' }, 'number', 'Your card number is invalid.'],
    ['expiry one digit', { expiry: '1' }, 'expiry', "Your card's expiration date is incomplete."],
    ['expiry no year', { expiry: '12 / ' }, 'expiry', "Your card's expiration date is incomplete."],
    ['expiry five digits', { expiry: '12/203' }, 'expiry', "Your card's expiration date is incomplete."],
    ['month 13', { expiry: '13 / 30' }, 'expiry', "Your card's expiration month is invalid."],
    ['month 00', { expiry: '00/30' }, 'expiry', "Your card's expiration month is invalid."],
    ['last month', { expiry: '05 / 26' }, 'expiry', "Your card's expiration date is in the past."],
    ['last year', { expiry: '12 / 25' }, 'expiry', "Your card's expiration date is in the past."],
    ['far future', { expiry: '01 / 2080' }, 'expiry', "Your card's expiration year is invalid."],
    ['cvc short', { cvc: '12' }, 'cvc', "Your card's security code is incomplete."],
    ['Amex cvc short', { number: '378282246310005', cvc: '123' }, 'cvc', "Your card's security code is incomplete."],
    ['cvc long', { cvc: '1234' }, 'cvc', "Your card's security code is invalid."],
    ['cvc letters', { cvc: '12a' }, 'cvc', "Your card's security code is invalid."],
  ])('%s', (_case, patch, field, error) => {
    expect(state(patch)).toEqual({ complete: false, error, field });
    expect(Object.values(CARD_FIELD_MESSAGES)).toContain(error);
  });

  it('shows the first problem: number, then expiry, then code', () => {
    expect(state({ number: '4242', expiry: '13', cvc: '1' }).field).toBe('number');
    expect(state({ expiry: '13', cvc: '1' }).field).toBe('expiry');
    expect(state({ number: '', expiry: '05/26', cvc: '1' }).error).toBe("Your card's expiration date is in the past.");
  });

  it('the expiry month is good through its last day', () => {
    expect(cardFieldState({ ...good, expiry: '06/26' }, new Date('2026-06-30T23:59:59Z')).complete).toBe(true);
    expect(cardFieldState({ ...good, expiry: '06/26' }, new Date('2026-07-01T00:00:00Z')).error).toBe(
      "Your card's expiration date is in the past.",
    );
  });
});

describe('sandbox card outcomes (Stripe test mode)', () => {
  it.each<[string, string | null, string | null]>([
    ['4242 4242 4242 4242', null, null],
    ['4242424242424242', null, null],
    ['5555 5555 5555 4444', null, null],
    ['378282246310005', null, null],
    ['4000 0000 0000 0002', 'card_declined', 'Your card was declined.'],
    ['4000 0000 0000 9995', 'insufficient_funds', 'Your card has insufficient funds.'],
    ['4000 0000 0000 9987', 'lost_card', 'Your card was declined.'],
    ['4000 0000 0000 9979', 'stolen_card', 'Your card was declined.'],
    ['4000 0000 0000 0069', 'expired_card', 'Your card has expired.'],
    ['4000 0000 0000 0127', 'incorrect_cvc', "Your card's security code is incorrect."],
    [
      '4000 0000 0000 0119',
      'processing_error',
      'An error occurred while processing your card. Try again in a little bit.',
    ],
    ['4242 4242 4242 4241', 'incorrect_number', 'Your card number is incorrect.'],
    ['4242', 'incorrect_number', 'Your card number is incorrect.'],
    ['', 'incorrect_number', 'Your card number is incorrect.'],
    ['4242x4242424242424', 'incorrect_number', 'Your card number is incorrect.'],
    ['00000000000000000000', 'incorrect_number', 'Your card number is incorrect.'],
  ])('%j', (card, code, message) => {
    expect(sandboxCardOutcome(card)).toEqual(
      code === null ? { outcome: 'succeeded' } : { outcome: 'declined', code, message },
    );
  });

  it('every listed decline card is Luhn-valid (so only the table decides)', () => {
    for (const card of Object.keys(SANDBOX_DECLINED_CARDS)) expect(luhnValid(card)).toBe(true);
  });

  it('any other Luhn-valid number of 12–19 digits succeeds', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[1-9]\d{11,18}$/), (raw) => {
        const card = fixLuhn(raw);
        fc.pre(!Object.hasOwn(SANDBOX_DECLINED_CARDS, card));
        expect(sandboxCardOutcome(card)).toEqual({ outcome: 'succeeded' });
      }),
    );
  });
});
