import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { isMoneyProperty, withoutMoneyProperties } from '@keyport/shared/contracts/analytics';
import { analyticsOutbox, analyticsSandboxDeliveries } from '../src/db/schema';
import { auth, createTestApp, signUp, type TestApp } from './helpers/test-app';

/**
 * Issue 19: any customer could send "Completed Upgrade Purchase" with `value: 999999` through POST /api/klaviyo/track
 * and it was forwarded. Purchase and redemption events now come only from the server (analytics-fulfilment.test.ts);
 * the browser route takes §3's other events, without money.
 */
let t: TestApp;
let people = 0;

beforeAll(async () => {
  // The defaults users get: the sandbox analytics adapter records what the provider would receive.
  t = await createTestApp();
});

const newUser = () => signUp(t, `forger-${++people}@example.com`, { ip: `10.93.0.${people}` });
const track = (token: string, payload: object) =>
  t.app.inject({ method: 'POST', url: '/api/klaviyo/track', headers: auth(token), payload });
const delivered = async (email: string) => {
  await t.app.services.analytics.deliverDue();
  return t.db.select().from(analyticsSandboxDeliveries).where(eq(analyticsSandboxDeliveries.email, email));
};

describe('POST /api/klaviyo/track from the browser', () => {
  it.each(['Completed Upgrade Purchase', 'Completed Upgrade Token Redemption'])(
    'refuses %s (the server records it from settled orders): 400, nothing stored or forwarded',
    async (eventName) => {
      const { token, id } = await newUser();
      const response = await track(token, {
        eventName,
        value: 999999,
        properties: { order_id: 1, total: 999999, currency: 'USD' },
        unique_id: 'upgrade-order-1',
      });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({
        error: 'eventName: not an event the browser may send (purchases and redemptions are recorded by the server)',
        code: 'invalid_request',
      });
      expect(await t.db.select().from(analyticsOutbox).where(eq(analyticsOutbox.userId, id))).toEqual([]);
      expect(await delivered(`forger-${people}@example.com`)).toEqual([]);
    },
  );

  it("takes the browser's events without their value and money fields: the provider never sees them", async () => {
    const { token } = await newUser();
    const email = `forger-${people}@example.com`;
    const response = await track(token, {
      eventName: 'Started Upgrade Checkout',
      value: 999999,
      properties: {
        license_key: 'LITE-KEY-1',
        upgrade_from: 'LITE',
        upgrade_to: 'PRO',
        payment_method: 'card',
        currency: 'USD',
        is_business: false,
        price: 999999,
        total: 999999,
        subtotal: 999999,
        tax: 1,
        tax_rate: 19,
        discount: 0,
        shipping: 0,
        $value: 999999,
        Revenue: 999999,
        orderTotal: 999999,
        amount_paid: 999999,
      },
      unique_id: 'checkout-1',
    });
    expect(response.statusCode).toBe(202);
    const [event, ...more] = await delivered(email);
    expect(more).toEqual([]);
    expect(event).toMatchObject({ name: 'Started Upgrade Checkout', value: null, uniqueId: 'checkout-1' });
    expect(event!.properties).toEqual({
      license_key: 'LITE-KEY-1',
      upgrade_from: 'LITE',
      upgrade_to: 'PRO',
      payment_method: 'card',
      currency: 'USD',
      is_business: false,
    });
  });

  it('drops money fields from profile updates too', async () => {
    const { token } = await newUser();
    const email = `forger-${people}@example.com`;
    const response = await t.app.inject({
      method: 'PUT',
      url: '/api/klaviyo/track',
      headers: auth(token),
      payload: { firstName: 'Forger', properties: { plan: 'PRO', lifetime_value: 999999, total_spent: 5 } },
    });
    expect(response.statusCode).toBe(202);
    const [profile] = await delivered(email);
    expect(profile!.properties).toEqual({ plan: 'PRO', first_name: 'Forger' });
  });

  it('still takes every non-purchase event of §3', async () => {
    const { token } = await newUser();
    for (const eventName of [
      'Viewed Upgrade Options',
      'Selected Upgrade',
      'Started Upgrade Checkout',
      'Active on Site',
    ]) {
      expect((await track(token, { eventName })).statusCode, eventName).toBe(202);
    }
    const names = (await delivered(`forger-${people}@example.com`)).map((row) => row.name).sort();
    expect(names).toEqual(['Active on Site', 'Selected Upgrade', 'Started Upgrade Checkout', 'Viewed Upgrade Options']);
  });
});

describe('money property names', () => {
  it.each([
    ['price', true],
    ['total', true],
    ['tax_rate', true],
    ['$value', true],
    ['Revenue', true],
    ['orderTotal', true],
    ['amount-paid', true],
    ['VAT', true],
    ['currency', false],
    ['license_key', false],
    ['upgrade_to', false],
    ['payment_method', false],
    ['quantity', false],
    ['valued_customer', false],
  ])('%s is money: %s', (name, money) => {
    expect(isMoneyProperty(name)).toBe(money);
  });

  it('are dropped, everything else kept as it is', () => {
    expect(withoutMoneyProperties({ price: 1, sku: 'upgrade-lite-to-pro', categories: ['License Upgrade'] })).toEqual({
      sku: 'upgrade-lite-to-pro',
      categories: ['License Upgrade'],
    });
  });
});
