import { afterEach, describe, expect, it, vi } from 'vitest';
import type { BillingInput } from '@keyport/shared/contracts/payments';
import { fakeApi, json, LITE_KEY, ORDER, TO_REGULAR } from '../test/fake-api';
import type { CardConfirmer } from './card-confirmer';
import { PAYMENT_FOLLOW_UP, payForUpgrade } from './pay-for-upgrade';

afterEach(() => vi.unstubAllGlobals());

const billing: BillingInput = {
  name: 'Ada Lovelace',
  email: 'ada@example.com',
  address: { line1: '1 Main St', line2: null, city: 'Springfield', state: null, postal_code: '12345', country: 'US' },
  is_business: false,
  company_name: null,
  vat_id: null,
};
const approves: CardConfirmer = { confirm: async () => ({ ok: true }) };
const created = () =>
  json(200, { payment_intent: { id: 'pi_sandbox_abc', client_secret: 'pi_sandbox_abc_secret_x' }, order: ORDER });

describe('payForUpgrade (§4 Payment, §8 card texts)', () => {
  it("says 'Card details are not available…' without a card, and calls nothing", async () => {
    const fake = fakeApi({});
    const outcome = await payForUpgrade({ option: TO_REGULAR, licenseKey: LITE_KEY, billing, confirmer: null });
    expect(outcome).toEqual({
      status: 'error',
      message: 'Card details are not available. Please refresh and try again.',
    });
    expect(fake.calls).toEqual([]);
  });

  it('names the tier when the option has no price id', async () => {
    fakeApi({});
    const outcome = await payForUpgrade({
      option: { ...TO_REGULAR, priceId: null },
      licenseKey: LITE_KEY,
      billing,
      confirmer: approves,
    });
    expect(outcome).toEqual({
      status: 'error',
      message: 'No Price ID configured for upgrade to REGULAR. Please contact support.',
    });
  });

  it("says 'An unexpected error occurred during payment.' when confirming throws", async () => {
    fakeApi({ 'POST /stripe/payment-intents': created });
    const outcome = await payForUpgrade({
      option: TO_REGULAR,
      licenseKey: LITE_KEY,
      billing,
      confirmer: { confirm: () => Promise.reject(new Error('boom')) },
    });
    expect(outcome).toEqual({ status: 'error', message: 'An unexpected error occurred during payment.' });
  });

  it('says the payment went through when the key had changed and the order was flagged for a refund', async () => {
    fakeApi({
      'POST /stripe/payment-intents': created,
      'POST /stripe/payment-intents/pi_sandbox_abc/sync': () =>
        json(200, { order: { ...ORDER, status: 'needs_refund' }, key: null }),
    });
    const outcome = await payForUpgrade({ option: TO_REGULAR, licenseKey: LITE_KEY, billing, confirmer: approves });
    expect(outcome).toEqual({ status: 'error', message: PAYMENT_FOLLOW_UP.notApplied });
  });

  it.each([
    ['order_void', 'This upgrade no longer applies: the license is REGULAR now. Nothing was charged.'],
    ['order_superseded', 'This payment was replaced by a newer one. Nothing was charged.'],
    ['order_expired', 'This payment expired before it was completed. Nothing was charged. Please start again.'],
  ])('says why nothing was charged when the sync refuses the order (%s, issue 19)', async (code, error) => {
    fakeApi({
      'POST /stripe/payment-intents': created,
      'POST /stripe/payment-intents/pi_sandbox_abc/sync': () => json(409, { error, code }),
    });
    const outcome = await payForUpgrade({ option: TO_REGULAR, licenseKey: LITE_KEY, billing, confirmer: approves });
    expect(outcome).toEqual({ status: 'error', message: error });
  });

  it('says the upgrade is on its way when the sync cannot be reached after a confirmed payment', async () => {
    const fake = fakeApi({ 'POST /stripe/payment-intents': created });
    const outcome = await payForUpgrade({ option: TO_REGULAR, licenseKey: LITE_KEY, billing, confirmer: approves });
    expect(outcome).toEqual({ status: 'error', message: PAYMENT_FOLLOW_UP.pending });
    expect(fake.callsTo('POST', '/stripe/payment-intents/pi_sandbox_abc/sync')).toHaveLength(1);
  });

  it('sends the spec’s metadata beside the billing, never an amount', async () => {
    const fake = fakeApi({
      'POST /stripe/payment-intents': created,
      'POST /stripe/payment-intents/pi_sandbox_abc/sync': () =>
        json(200, { order: { ...ORDER, status: 'completed' }, key: { ...LITE_KEY, lite: false } }),
    });
    const outcome = await payForUpgrade({ option: TO_REGULAR, licenseKey: LITE_KEY, billing, confirmer: approves });
    expect(outcome.status).toBe('succeeded');
    const body = fake.callsTo('POST', '/stripe/payment-intents')[0]!.body as Record<string, unknown>;
    expect(body.metadata).toEqual({
      license_key: 'LITE-AAAA-BBBB-CCCC',
      upgrade_from: 'LITE',
      upgrade_to: 'REGULAR',
      is_business: false,
      company_name: null,
      vat_id: null,
      customer_country: 'US',
    });
    expect(JSON.stringify(body)).not.toMatch(/amount|12000|120\.00/);
  });
});
