/**
 * Spec §7 "Calls made", row by row: every request is sent exactly as §7 lists it — its fields and nothing else — and
 * must be accepted (issue 19). The payment and PayPal rows go through to a paid, upgraded key; every other row to its
 * own success answer.
 */
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import { orders } from '../src/db/schema';
import { auth, createTestApp, signUp, type TestApp } from './helpers/test-app';
import { makeThemeZip, pathOf, uploadRelease, useDataDir } from './helpers/releases';
import { tierOf } from './helpers/keys';

const dataDir = useDataDir('spec-calls');
const PUBLIC_URL = 'http://portal.test';
const HOST = 'portal.test';

let t: TestApp;
let user: { token: string; id: number };
let staff: { token: string; id: number };

beforeAll(async () => {
  t = await createTestApp({
    DATA_DIR: dataDir(),
    PUBLIC_URL,
    DOWNLOAD_LINK_SECRET: 'spec-calls-download-secret-0123456789abcdef',
  });
  user = await signUp(t, 'spec-calls@example.com');
  staff = await signUp(t, 'spec-calls-staff@example.com', { role: 'staff' });
  const zip = await makeThemeZip(dataDir(), { edition: 'LITE', version: '4.2.0' });
  await writeFile(path.join(dataDir(), 'lite.zip'), zip.bytes);
  const uploaded = await uploadRelease(t, staff.token, { edition: 'LITE', version: '4.2.0' }, { content: zip.bytes });
  expect(uploaded.statusCode, uploaded.body).toBe(201);
});

/** Sends a §7 request as the signed-in customer (the host is the portal's, as the browser's would be). */
function call(method: 'GET' | 'POST' | 'PUT', url: string, body?: Record<string, unknown>, token = user.token) {
  return t.app.inject({
    method,
    url,
    headers: { ...auth(token), host: HOST },
    ...(body === undefined ? {} : { payload: body }),
  });
}

/** Accepted: a 2xx answer (the body's own `error`, if any, is the server's message for a refusal it explains). */
function accepted(response: LightMyRequestResponse) {
  expect(response.statusCode, `${response.statusCode} ${response.body.slice(0, 300)}`).toBeGreaterThanOrEqual(200);
  expect(response.statusCode, response.body.slice(0, 300)).toBeLessThan(300);
}

async function mintKey(tier: 'LITE' | 'REGULAR' | 'PRO'): Promise<string> {
  const [key] = await t.app.services.keys.mintKeys(tier, 1);
  return key!;
}

async function mintToken(pathName: 'LITE_TO_REGULAR' | 'REGULAR_TO_PRO' | 'LITE_TO_PRO'): Promise<string> {
  const response = await call(
    'POST',
    '/staff/upgrade-tokens',
    { path: pathName, count: 1, reason: 'spec' },
    staff.token,
  );
  return response.json<{ tokens: string[] }>().tokens[0]!;
}

/** A key of the customer's: `POST /keys/ {key}` (§7), as the dashboard adds one. */
async function addKey(tier: 'LITE' | 'REGULAR' | 'PRO'): Promise<string> {
  const key = await mintKey(tier);
  const response = await call('POST', '/keys/', { key });
  expect(response.statusCode).toBe(201);
  return key;
}

describe('§7 rows: keys, stores, releases, homepage, analytics', () => {
  it('GET /auth/user-stores, POST /keys/, GET /keys/, PUT /keys/ (with and without secondary_url)', async () => {
    accepted(await call('GET', '/auth/user-stores'));
    const key = await addKey('LITE');
    const listed = await call('GET', '/keys/');
    accepted(listed);
    expect(listed.body).toContain(key);
    const saved = await call('PUT', '/keys/', { key, main_url: 'spec-store.com', myshopify: 'spec-store' });
    accepted(saved);
    expect(saved.json<{ tokentheme: string }>().tokentheme).toBeTruthy();
    accepted(
      await call('PUT', '/keys/', {
        key,
        main_url: 'spec-store.com',
        myshopify: 'spec-store',
        secondary_url: 'www.spec-store.com',
      }),
    );
  });

  it('POST /keys/create, POST /keys/delete, GET /keys/check_purchased_upgrades, GET /keys/list_keys_upgrade', async () => {
    const created = await call('POST', '/keys/create', { type: 'regular' });
    // "Defined but unused": answered with its own refusal, never a malformed-request one.
    expect(created.json<{ code?: string }>().code).not.toBe('invalid_request');
    accepted(await call('GET', '/keys/check_purchased_upgrades'));
    accepted(await call('GET', '/keys/list_keys_upgrade'));
    const key = await addKey('REGULAR');
    accepted(await call('POST', '/keys/delete', { apiKey: key }));
  });

  it('POST /staff/get-releases, POST /api/download-with-token, POST /api/proxy_dl', async () => {
    const key = await addKey('LITE');
    const token = (await call('PUT', '/keys/', { key, main_url: 'spec-release.com', myshopify: 'spec-release' })).json<{
      tokentheme: string;
    }>().tokentheme;
    const releases = await call('POST', '/staff/get-releases', { key });
    accepted(releases);
    const link = releases.json<{ result: { download_link: string } }>().result.download_link;
    const withToken = await call('POST', '/api/download-with-token', { downloadUrl: link, token, licenseType: 'LITE' });
    accepted(withToken);
    expect(withToken.headers['content-type']).toBe('application/zip');
    const fallback = await call('POST', '/api/proxy_dl', { url: link });
    accepted(fallback);
    expect(pathOf(link)).toContain('/api/releases/');
  });

  it('GET /staff/homepage-settings?preview=false, POST and PUT /api/klaviyo/track', async () => {
    accepted(await call('GET', '/staff/homepage-settings?preview=false'));
    accepted(
      await call('POST', '/api/klaviyo/track', {
        email: 'spec-calls@example.com',
        eventName: 'Viewed Upgrade Options',
        properties: { license_key: 'x' },
        value: 0,
      }),
    );
    accepted(
      await call('PUT', '/api/klaviyo/track', {
        email: 'spec-calls@example.com',
        firstName: 'Spec',
        lastName: 'Calls',
        phoneNumber: '+4930123456',
        properties: { plan: 'LITE' },
      }),
    );
  });
});

describe('§7 rows: VAT, card payment, PayPal, tokens', () => {
  it('POST /stripe/vat/verify, POST /stripe/vat/calculate, GET /stripe/config', async () => {
    const verified = await call('POST', '/stripe/vat/verify', { vat_number: 'DE123456789' });
    accepted(verified);
    expect(verified.json()).toMatchObject({ valid: true });
    const calculated = await call('POST', '/stripe/vat/calculate', {
      amount: 12000,
      country_code: 'DE',
      is_business: false,
      vat_id: null,
    });
    accepted(calculated);
    expect(calculated.json()).toMatchObject({ base_amount: 12000, vat_amount: 2280, total_amount: 14280 });
    accepted(await call('GET', '/stripe/config'));
  });

  it('POST /stripe/payment-intents {price_id, theme_type, key, metadata}: billed from the metadata, paid, upgraded', async () => {
    const key = await addKey('LITE');
    const started = await call('POST', '/stripe/payment-intents', {
      price_id: 'price_sandbox_lite_to_regular',
      theme_type: 'REGULAR',
      key,
      metadata: {
        license_key: key,
        upgrade_from: 'LITE',
        upgrade_to: 'REGULAR',
        current_version: '4.2.0',
        theme_name: 'Aurora',
        is_business: false,
        company_name: null,
        vat_id: null,
        customer_country: 'DE',
      },
    });
    accepted(started);
    const { payment_intent, order } = started.json<{
      payment_intent: { id: string; client_secret: string };
      order: { id: number; vat_amount: number; total_amount: number };
    }>();
    expect(payment_intent.client_secret).toContain('_secret_');
    // The billing country of the metadata decided the VAT: Germany, 19 %.
    expect(order).toMatchObject({ vat_amount: 2280, total_amount: 14280 });
    const [row] = await t.db.select().from(orders).where(eq(orders.id, order.id));
    expect(row!.billing).toMatchObject({
      name: 'spec-calls',
      email: 'spec-calls@example.com',
      address: { country: 'DE' },
      is_business: false,
    });

    expect(
      (
        await call('POST', '/sandbox/stripe/confirm', {
          payment_intent_id: payment_intent.id,
          card_number: '4242424242424242',
        })
      ).statusCode,
    ).toBe(200);
    await t.app.services.sandboxPayments!.idle();
    accepted(await call('POST', `/stripe/payment-intents/${payment_intent.id}/sync`));
    expect(await tierOf(t, key)).toBe('REGULAR');
  });

  it('the metadata’s business fields: a VIES-valid VAT ID of the metadata’s country is reverse charged', async () => {
    const key = await addKey('LITE');
    const started = await call('POST', '/stripe/payment-intents', {
      price_id: 'price_sandbox_lite_to_regular',
      theme_type: 'REGULAR',
      key,
      metadata: {
        license_key: key,
        upgrade_from: 'LITE',
        upgrade_to: 'REGULAR',
        current_version: '4.2.0',
        theme_name: 'Aurora',
        is_business: true,
        company_name: 'Kunde GmbH',
        vat_id: 'DE123456789',
        customer_country: 'DE',
      },
    });
    accepted(started);
    expect(started.json()).toMatchObject({ order: { vat_amount: 0, total_amount: 12000, reverse_charge: true } });
    // Without a country anywhere there is nothing to bill: the spec's billing text.
    const noCountry = await call('POST', '/stripe/payment-intents', {
      price_id: 'price_sandbox_lite_to_regular',
      theme_type: 'REGULAR',
      key,
      metadata: { license_key: key },
    });
    expect(noCountry.statusCode).toBe(400);
    expect(noCountry.json()).toEqual({ error: 'Choose your country', code: 'invalid_country' });
  });

  it('POST /stripe/paypal/create-order and POST /stripe/paypal/capture-order {order_id}', async () => {
    const key = await addKey('LITE');
    const created = await call('POST', '/stripe/paypal/create-order', {
      price_id: 'price_sandbox_lite_to_pro',
      theme_type: 'PRO',
      key,
      country_code: 'US',
      vat_id: null,
      customer_name: 'Sam Buyer',
      customer_email: 'sam@example.com',
      company_name: null,
      billing_address: {
        line1: '1 Main St',
        line2: null,
        city: 'Austin',
        state: 'TX',
        postal_code: '73301',
        country: 'US',
      },
      metadata: { license_key: key, upgrade_from: 'LITE', upgrade_to: 'PRO' },
    });
    accepted(created);
    const orderId = created.json<{ order: { id: string } }>().order.id;
    await t.app.inject({
      method: 'POST',
      url: '/sandbox/paypal/checkout',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ token: orderId, action: 'approve' }).toString(),
    });
    const captured = await call('POST', '/stripe/paypal/capture-order', { order_id: orderId });
    accepted(captured);
    expect(captured.json()).toMatchObject({ order: { status: 'completed' } });
    expect(await tierOf(t, key)).toBe('PRO');
  });

  it('POST /keys/upgrade/regular, /keys/upgrade/pro and /keys/upgrade/l2p {upgradeKey, licenseKey}', async () => {
    const lite = await addKey('LITE');
    accepted(
      await call('POST', '/keys/upgrade/regular', { upgradeKey: await mintToken('LITE_TO_REGULAR'), licenseKey: lite }),
    );
    accepted(
      await call('POST', '/keys/upgrade/pro', { upgradeKey: await mintToken('REGULAR_TO_PRO'), licenseKey: lite }),
    );
    const other = await addKey('LITE');
    accepted(
      await call('POST', '/keys/upgrade/l2p', { upgradeKey: await mintToken('LITE_TO_PRO'), licenseKey: other }),
    );
    expect(await tierOf(t, lite)).toBe('PRO');
    expect(await tierOf(t, other)).toBe('PRO');
  });
});

describe('§7 rows: credits', () => {
  it('GET /credits/redeem-products, POST /credits/redeem {redeem_product_id}, POST /credits/report-store', async () => {
    const created = await call(
      'POST',
      '/staff/redeem-products',
      {
        name: 'REGULAR License',
        description: 'A license',
        grant_type: 'license_level',
        grant_value: 'REGULAR',
        cost_credits: 3,
        reason: 'spec calls',
      },
      staff.token,
    );
    expect(created.statusCode, created.body).toBe(201);
    const products = await call('GET', '/credits/redeem-products');
    accepted(products);
    const [product] = products.json<{ redeem_products: { id: number }[] }>().redeem_products;
    const redeemed = await call('POST', '/credits/redeem', { redeem_product_id: product!.id });
    // No credits yet: refused with the server's own reason (§8's 'insufficient' path), not as a malformed request.
    expect(redeemed.statusCode).toBe(402);
    expect(redeemed.json()).toMatchObject({
      code: 'insufficient_credits',
      error: expect.stringMatching(/Insufficient/),
    });
    const reported = await call('POST', '/credits/report-store', {
      storeDomains: ['one-shop.com', 'two-shop.com', 'three-shop.com', 'four-shop.com', 'five-shop.com'],
    });
    accepted(reported);
    expect(reported.json()).toMatchObject({ validations: expect.any(Array) });
  });
});
