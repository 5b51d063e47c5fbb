import { beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, DEMO_SELLER, loadConfig, startNotices } from '../src/config';
import { analyticsOutbox } from '../src/db/schema';
import { auth, createTestApp, getTestDatabase, signUp } from './helpers/test-app';

/**
 * Issue 19: `NODE_ENV=production` without Stripe or PayPal keys started silently on the sandboxes, and anyone upgraded for
 * free with the test card or the sandbox PayPal page. Production now refuses every sandbox integration unless the
 * operator opts in with SANDBOX_INTEGRATIONS=true, and refuses to invoice without the seller's identity.
 */
const SELLER = {
  SELLER_NAME: 'Vendor Themes Ltd',
  SELLER_ADDRESS: '5 Harbour Road|Cork T12 AB34|Ireland',
  SELLER_VAT_ID: 'IE1234567T',
};

/** Every real integration, live: what a vendor taking real money sets (nothing is contacted at start). */
const LIVE = {
  STRIPE_SECRET_KEY: 'sk_live_vendor',
  STRIPE_PUBLISHABLE_KEY: 'pk_live_vendor',
  STRIPE_WEBHOOK_SECRET: 'whsec_vendor',
  PAYPAL_CLIENT_ID: 'paypal-client',
  PAYPAL_CLIENT_SECRET: 'paypal-secret',
  PAYPAL_WEBHOOK_ID: 'WH-1',
  PAYPAL_ENV: 'live',
  VIES_ADAPTER: 'vies',
  SMTP_URL: 'smtp://mail.vendor.example:587',
  EXCHANGE_RATES_ADAPTER: 'ecb',
};

const production = (env: Record<string, string> = {}) => loadConfig({ NODE_ENV: 'production', ...env });
const failure = (env: Record<string, string>): string => {
  try {
    production(env);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as Error).message;
  }
  throw new Error('the configuration was accepted');
};

describe('production without the sandbox opt-in', () => {
  it('refuses to start on the sandboxes, naming every variable to set', () => {
    expect(failure({})).toBe(
      [
        'Invalid configuration:',
        '  STRIPE_SECRET_KEY: production takes card payments with Stripe: set STRIPE_SECRET_KEY, STRIPE_PUBLISHABLE_KEY and STRIPE_WEBHOOK_SECRET',
        '  PAYPAL_CLIENT_ID: production takes PayPal payments with PayPal: set PAYPAL_CLIENT_ID, PAYPAL_CLIENT_SECRET, PAYPAL_WEBHOOK_ID and PAYPAL_ENV=live',
        '  VIES_ADAPTER: production checks EU VAT numbers with the EU VIES service: set VIES_ADAPTER=vies',
        '  SMTP_URL: production sends its emails: set SMTP_URL (smtp:// or smtps://)',
        "  EXCHANGE_RATES_ADAPTER: EU invoices show their VAT in EUR at the ECB's reference rate: set EXCHANGE_RATES_ADAPTER=ecb",
        '  SANDBOX_INTEGRATIONS: or set SANDBOX_INTEGRATIONS=true to run a demo on the sandboxes (no real money; every page says so)',
        "  SELLER_NAME: invoices need the seller's legal name: set SELLER_NAME",
        "  SELLER_ADDRESS: invoices need the seller's address: set SELLER_ADDRESS (lines separated by '|')",
        "  SELLER_VAT_ID: invoices need the seller's VAT ID: set SELLER_VAT_ID",
      ].join('\n'),
    );
  });

  it.each([
    [
      'STRIPE_SECRET_KEY',
      { STRIPE_SECRET_KEY: undefined, STRIPE_PUBLISHABLE_KEY: undefined, STRIPE_WEBHOOK_SECRET: undefined },
    ],
    [
      'PAYPAL_CLIENT_ID',
      { PAYPAL_CLIENT_ID: undefined, PAYPAL_CLIENT_SECRET: undefined, PAYPAL_WEBHOOK_ID: undefined },
    ],
    ['VIES_ADAPTER', { VIES_ADAPTER: 'sandbox' }],
    ['SMTP_URL', { SMTP_URL: undefined }],
    ['EXCHANGE_RATES_ADAPTER', { EXCHANGE_RATES_ADAPTER: 'sandbox' }],
    ['SELLER_COUNTRY', { SELLER_VAT_ID: 'EU372000041' }],
    ['SELLER_NAME', { SELLER_NAME: undefined }],
    ['SELLER_ADDRESS', { SELLER_ADDRESS: ' | ' }],
    ['SELLER_VAT_ID', { SELLER_VAT_ID: undefined }],
  ] as const)('refuses to start when only %s is missing', (name, change) => {
    const env = Object.fromEntries(
      Object.entries({ ...LIVE, ...SELLER, ...change }).filter(([, value]) => value !== undefined),
    ) as Record<string, string>;
    const lines = failure(env).split('\n').slice(1);
    expect(lines[0]).toMatch(new RegExp(`^  ${name}: `));
    expect(lines.filter((line) => !line.startsWith('  SANDBOX_INTEGRATIONS:'))).toHaveLength(1);
  });

  it("refuses the providers' own test modes: Stripe test keys, PayPal's sandbox", () => {
    const stripeTest = failure({
      ...LIVE,
      ...SELLER,
      STRIPE_SECRET_KEY: 'sk_test_vendor',
      STRIPE_PUBLISHABLE_KEY: 'pk_test_vendor',
    });
    expect(stripeTest).toContain('  STRIPE_SECRET_KEY: test-mode keys take no real money');
    const paypalSandbox = failure({ ...LIVE, ...SELLER, PAYPAL_ENV: 'sandbox' });
    expect(paypalSandbox).toContain("  PAYPAL_ENV: PayPal's sandbox takes no real money: set PAYPAL_ENV=live");
  });

  it('starts with every real integration live and the seller named; analytics without a key are off, and said so', () => {
    const config = production({ ...LIVE, ...SELLER });
    expect(config.payments).toMatchObject({ kind: 'stripe', secretKey: 'sk_live_vendor' });
    expect(config.wallet).toMatchObject({ kind: 'paypal', environment: 'live' });
    expect(config.sandbox).toEqual({ optedIn: false, integrations: [], noRealMoney: false });
    expect(config.analytics.provider).toEqual({ kind: 'off' });
    expect(config).toMatchObject({
      sellerName: 'Vendor Themes Ltd',
      sellerAddress: ['5 Harbour Road', 'Cork T12 AB34', 'Ireland'],
      sellerVatId: 'IE1234567T',
    });
    expect(startNotices(config)).toEqual(['Analytics are off: KLAVIYO_PRIVATE_KEY is not set']);
    const withKlaviyo = production({ ...LIVE, ...SELLER, KLAVIYO_PRIVATE_KEY: 'pk_klaviyo' });
    expect(withKlaviyo.analytics.provider).toMatchObject({ kind: 'klaviyo' });
    expect(startNotices(withKlaviyo)).toEqual([]);
  });
});

describe('production with SANDBOX_INTEGRATIONS=true (a demo deployment)', () => {
  it('starts on the sandboxes, says so in the log, masks logged emails and tells the web app', () => {
    const config = production({ SANDBOX_INTEGRATIONS: 'true', ...SELLER });
    expect(config.payments).toEqual({ kind: 'sandbox' });
    expect(config.wallet).toEqual({ kind: 'sandbox' });
    expect(config.vies).toEqual({ kind: 'sandbox' });
    expect(config.analytics.provider).toEqual({ kind: 'sandbox' });
    expect(config.email).toMatchObject({ smtpUrl: null, maskLoggedEmails: true });
    expect(config.sandbox).toEqual({
      optedIn: true,
      integrations: ['card payments', 'PayPal', 'VIES', 'email', 'exchange rates'],
      noRealMoney: true,
    });
    expect(startNotices(config)).toEqual([
      'SANDBOX_INTEGRATIONS=true: card payments, PayPal, VIES, email, exchange rates run on their sandboxes; no real money is taken, and every page says so',
    ]);
  });

  it('still needs the seller for its invoices', () => {
    const message = failure({ SANDBOX_INTEGRATIONS: 'true' });
    expect(message.split('\n').slice(1)).toEqual([
      "  SELLER_NAME: invoices need the seller's legal name: set SELLER_NAME",
      "  SELLER_ADDRESS: invoices need the seller's address: set SELLER_ADDRESS (lines separated by '|')",
      "  SELLER_VAT_ID: invoices need the seller's VAT ID: set SELLER_VAT_ID",
    ]);
  });

  it('refuses a bad value of the flag, naming it', () => {
    expect(failure({ SANDBOX_INTEGRATIONS: 'yes', ...SELLER })).toMatch(
      /^Invalid configuration:\n {2}SANDBOX_INTEGRATIONS:/,
    );
  });
});

describe('outside production', () => {
  it('runs on the sandboxes with the demo seller, logs emails in full and has no start notice', () => {
    for (const env of [{}, { NODE_ENV: 'development' }, { NODE_ENV: 'test' }]) {
      const config = loadConfig(env);
      expect(config.payments).toEqual({ kind: 'sandbox' });
      expect(config.sandbox.noRealMoney).toBe(true);
      expect(config.email.maskLoggedEmails).toBe(false);
      expect(config.analytics.provider).toEqual({ kind: 'sandbox' });
      expect(config).toMatchObject({
        sellerName: DEMO_SELLER.name,
        sellerAddress: [...DEMO_SELLER.address],
        sellerVatId: DEMO_SELLER.vatId,
      });
      expect(startNotices(config)).toEqual([]);
    }
    expect(DEMO_SELLER).toEqual({
      name: 'Keyport Themes Ltd',
      address: ['1 Sandbox Street', 'London EC1A 1BB'],
      vatId: 'GB123456789',
    });
  });

  it("uses the configured seller where one is set (the demo's only fills the gaps)", () => {
    const config = loadConfig({ SELLER_NAME: 'Vendor Themes Ltd', SELLER_VAT_ID: 'ie1234567t' });
    expect(config).toMatchObject({
      sellerName: 'Vendor Themes Ltd',
      sellerVatId: 'IE1234567T',
      sellerAddress: [...DEMO_SELLER.address],
    });
  });
});

describe('the /sandbox/* routes', () => {
  // The database starts once per worker (PGlite takes seconds): in a hook, with the hooks' longer timeout.
  beforeAll(() => getTestDatabase());
  const STRIPE = {
    STRIPE_SECRET_KEY: 'sk_test_routes',
    STRIPE_PUBLISHABLE_KEY: 'pk_test_routes',
    STRIPE_WEBHOOK_SECRET: 'whsec_routes',
    STRIPE_API_BASE: 'http://127.0.0.1:9',
  };
  const PAYPAL = {
    PAYPAL_CLIENT_ID: 'routes-client',
    PAYPAL_CLIENT_SECRET: 'routes-secret',
    PAYPAL_WEBHOOK_ID: 'WH-ROUTES',
    PAYPAL_API_BASE: 'http://127.0.0.1:9',
  };
  /** Which sandbox routes exist: an absent route is the generic 404 `not_found` (the order lookups have other codes). */
  async function sandboxRoutes(env: Record<string, string>) {
    const t = await createTestApp(env);
    const absent = async (request: { method: 'GET' | 'POST'; url: string; payload?: object | string }) => {
      const response = await t.app.inject({
        ...request,
        ...(typeof request.payload === 'string'
          ? { headers: { 'content-type': 'application/x-www-form-urlencoded' } }
          : {}),
      });
      return response.statusCode === 404 && response.json<{ code: string }>().code === 'not_found';
    };
    const result = {
      cardConfirm: !(await absent({
        method: 'POST',
        url: '/sandbox/stripe/confirm',
        payload: { payment_intent_id: 'pi_sandbox_abc', card_number: '4242424242424242' },
      })),
      paypalPage: !(await absent({ method: 'GET', url: '/sandbox/paypal/checkout?token=AAAAAAAAAAAAAAAAA' })),
      paypalDecide: !(await absent({
        method: 'POST',
        url: '/sandbox/paypal/checkout',
        payload: 'token=AAAAAAAAAAAAAAAAA&action=approve',
      })),
      bannerOn: (await t.app.inject({ url: '/config' })).json<{ sandbox: boolean }>().sandbox,
    };
    await t.app.close();
    return result;
  }

  it('are all served while both payment ways run on the sandboxes', async () => {
    expect(await sandboxRoutes({})).toEqual({
      cardConfirm: true,
      paypalPage: true,
      paypalDecide: true,
      bannerOn: true,
    });
  });

  it('answer 404 for the card confirmation when Stripe is configured (the PayPal sandbox stays)', async () => {
    expect(await sandboxRoutes(STRIPE)).toEqual({
      cardConfirm: false,
      paypalPage: true,
      paypalDecide: true,
      bannerOn: true,
    });
  });

  it('answer 404 for the approval page and its form when PayPal is configured', async () => {
    expect(await sandboxRoutes(PAYPAL)).toEqual({
      cardConfirm: true,
      paypalPage: false,
      paypalDecide: false,
      bannerOn: true,
    });
  });

  it('are all gone with both providers configured; live keys turn the banner off', async () => {
    expect(await sandboxRoutes({ ...STRIPE, ...PAYPAL })).toMatchObject({
      cardConfirm: false,
      paypalPage: false,
      paypalDecide: false,
    });
    const live = await sandboxRoutes({
      ...STRIPE,
      ...PAYPAL,
      STRIPE_SECRET_KEY: 'sk_live_routes',
      STRIPE_PUBLISHABLE_KEY: 'pk_live_routes',
      PAYPAL_ENV: 'live',
    });
    expect(live).toEqual({ cardConfirm: false, paypalPage: false, paypalDecide: false, bannerOn: false });
  });
});

describe('analytics that are off (production without KLAVIYO_PRIVATE_KEY)', () => {
  beforeAll(() => getTestDatabase());

  it('record nothing: the browser still gets its 202, no outbox row is written, staff see adapter "off"', async () => {
    const t = await createTestApp({
      NODE_ENV: 'production',
      ...LIVE,
      ...SELLER,
      STRIPE_API_BASE: 'http://127.0.0.1:9',
      PAYPAL_API_BASE: 'http://127.0.0.1:9',
    });
    const customer = await signUp(t, 'analytics-off@example.com', { ip: '10.95.0.1' });
    const staff = await signUp(t, 'staff@example.com', { role: 'staff', ip: '10.95.0.2' });
    const tracked = await t.app.inject({
      method: 'POST',
      url: '/api/klaviyo/track',
      headers: auth(customer.token),
      payload: { eventName: 'Viewed Upgrade Options' },
    });
    expect(tracked.statusCode).toBe(202);
    const profile = await t.app.inject({
      method: 'PUT',
      url: '/api/klaviyo/track',
      headers: auth(customer.token),
      payload: { firstName: 'Off' },
    });
    expect(profile.statusCode).toBe(202);
    expect(await t.db.select().from(analyticsOutbox)).toEqual([]);
    const listed = await t.app.inject({ url: '/staff/analytics-events', headers: auth(staff.token) });
    expect(listed.json()).toMatchObject({ adapter: 'off', total: 0, events: [] });
    await t.app.close();
  });
});
