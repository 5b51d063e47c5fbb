import { afterEach, describe, expect, it, vi } from 'vitest';
import type { BillingInput } from '@keyport/shared/contracts/payments';
import { fakeApi, json, LITE_KEY, LITE_TO_PRO, ORDER, TO_REGULAR } from '../test/fake-api';
import { capturePaypal, goToPaypalApproval, startPaypalOrder, WALLET_MESSAGES } from './pay-with-paypal';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const BILLING: BillingInput = {
  name: 'Erika Mustermann',
  email: 'erika@example.com',
  address: {
    line1: 'Unter den Linden 1',
    line2: null,
    city: 'Berlin',
    state: null,
    postal_code: '10117',
    country: 'DE',
  },
  is_business: true,
  company_name: 'Keyport Sandbox GmbH',
  vat_id: 'DE123456789',
};
const QUOTE = { ...ORDER, to: 'PRO' as const, base_amount: 32000, vat_amount: 0, total_amount: 32000 };
const CREATED = { order: { id: '5O190127TN364715T' }, approve_url: '/sandbox/paypal/checkout?token=X', quote: QUOTE };

describe('startPaypalOrder (§7 create-order, §8 wallet texts)', () => {
  it('sends the flat fields of §7 and answers the PayPal order id and where to approve it', async () => {
    const api = fakeApi({ 'POST /stripe/paypal/create-order': () => json(200, CREATED) });
    const started = await startPaypalOrder({ option: LITE_TO_PRO, licenseKey: LITE_KEY, billing: BILLING });
    expect(started).toEqual({ ok: true, orderId: '5O190127TN364715T', approveUrl: '/sandbox/paypal/checkout?token=X' });
    expect(api.calls[0]!.body).toEqual({
      price_id: 'price_lite_pro',
      theme_type: 'PRO',
      key: 'LITE-AAAA-BBBB-CCCC',
      country_code: 'DE',
      vat_id: 'DE123456789',
      customer_name: 'Erika Mustermann',
      customer_email: 'erika@example.com',
      company_name: 'Keyport Sandbox GmbH',
      is_business: true,
      billing_address: BILLING.address,
      metadata: {
        license_key: 'LITE-AAAA-BBBB-CCCC',
        upgrade_from: 'LITE',
        upgrade_to: 'PRO',
        is_business: true,
        company_name: 'Keyport Sandbox GmbH',
        vat_id: 'DE123456789',
        customer_country: 'DE',
      },
    });
  });

  it("'No price configured' when the option has no price id, without calling the server", async () => {
    const api = fakeApi({});
    const started = await startPaypalOrder({
      option: { ...TO_REGULAR, priceId: null },
      licenseKey: LITE_KEY,
      billing: BILLING,
    });
    expect(started).toEqual({ ok: false, message: 'No price configured' });
    expect(api.calls).toHaveLength(0);
  });

  it("'Failed to create order' when the answer carries no order id", async () => {
    fakeApi({ 'POST /stripe/paypal/create-order': () => json(200, { ...CREATED, order: { id: ' ' } }) });
    expect(await startPaypalOrder({ option: LITE_TO_PRO, licenseKey: LITE_KEY, billing: BILLING })).toEqual({
      ok: false,
      message: 'Failed to create order',
    });
  });

  it.each([
    ['a network failure', () => Promise.reject(new TypeError('Failed to fetch')), 'Failed to create PayPal order'],
    ['a 502 without a body', () => new Response('Bad gateway', { status: 502 }), 'Failed to create PayPal order'],
    [
      "the server's own message",
      () => json(409, { error: 'This license was already upgraded', code: 'conflict' }),
      'This license was already upgraded',
    ],
  ])("create-order failed (%s): 'Failed to create PayPal order' or the server's message", async (_, answer, text) => {
    fakeApi({ 'POST /stripe/paypal/create-order': answer });
    expect(await startPaypalOrder({ option: LITE_TO_PRO, licenseKey: LITE_KEY, billing: BILLING })).toEqual({
      ok: false,
      message: text,
    });
  });
});

describe('capturePaypal (§7 capture-order)', () => {
  it('succeeds only with a completed order, and hands back the upgraded key', async () => {
    const PRO = { ...LITE_KEY, lite: false, pro: true };
    const api = fakeApi({
      'POST /stripe/paypal/capture-order': () => json(200, { order: { ...QUOTE, status: 'completed' }, key: PRO }),
    });
    expect(await capturePaypal('5O190127TN364715T')).toEqual({
      status: 'succeeded',
      order: { ...QUOTE, status: 'completed' },
      key: PRO,
    });
    expect(api.calls[0]!.body).toEqual({ order_id: '5O190127TN364715T' });
  });

  it.each([
    ['the server refuses it', () => json(402, { error: 'Declined', code: 'payment_failed' }), 'Capture failed'],
    ['a 500', () => json(500, { error: 'Internal Server Error', code: 'internal' }), 'Capture failed'],
    ['no answer', () => Promise.reject(new TypeError('Failed to fetch')), 'Failed to finalize PayPal payment'],
    [
      'the order is not completed',
      () => json(200, { order: { ...QUOTE, status: 'needs_refund' }, key: null }),
      'Failed to finalize PayPal payment',
    ],
  ])('%s: %s', async (_, answer, text) => {
    fakeApi({ 'POST /stripe/paypal/capture-order': answer });
    expect(await capturePaypal('5O190127TN364715T')).toEqual({ status: 'error', message: text });
  });

  it("a refusal before any money moved says the server's why (issue 19)", async () => {
    const error = 'This upgrade no longer applies: the license is REGULAR now. Nothing was charged.';
    fakeApi({ 'POST /stripe/paypal/capture-order': () => json(409, { error, code: 'order_void' }) });
    expect(await capturePaypal('5O190127TN364715T')).toEqual({ status: 'error', message: error, notCharged: true });
  });

  it('names every §8 wallet text exactly', () => {
    expect(Object.values(WALLET_MESSAGES)).toEqual([
      'No price configured',
      'Failed to create order',
      'Capture failed',
      'Failed to create PayPal order',
      'Failed to finalize PayPal payment',
      'PayPal error',
    ]);
  });
});

describe('goToPaypalApproval', () => {
  it('follows http(s) addresses only', () => {
    const assign = vi.fn();
    vi.stubGlobal('location', { ...window.location, origin: 'http://localhost', assign });
    expect(goToPaypalApproval('/sandbox/paypal/checkout?token=ABC')).toBe(true);
    expect(assign).toHaveBeenCalledWith('http://localhost/sandbox/paypal/checkout?token=ABC');
    expect(goToPaypalApproval('javascript:alert(1)')).toBe(false);
    expect(assign).toHaveBeenCalledTimes(1);
  });
});
