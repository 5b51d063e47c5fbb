/**
 * Configuration picks the wallet (house style 5): the sandbox wallet by default, PayPal when PAYPAL_CLIENT_ID (with its
 * secret and webhook id) is set — exercised through loadConfig, the way a deployment makes the choice.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/config';
import type { Db } from '../src/db/client';
import { createPaypalProvider } from '../src/integrations/paypal/create-paypal-provider';
import { PaypalWebhookError } from '../src/integrations/paypal/port';
import { signSandboxPaypalEvent } from '../src/integrations/paypal/sandbox-adapter';
import { startFakePaypalApi, type FakePaypalApi } from './fakes/paypal-api';
import { testJobs } from './helpers/jobs';
import { getTestDatabase } from './helpers/test-app';

const PAYPAL = { PAYPAL_CLIENT_ID: 'client-id', PAYPAL_CLIENT_SECRET: 'secret', PAYPAL_WEBHOOK_ID: 'WH-1' };

describe('PayPal configuration', () => {
  it('is the sandbox wallet when nothing is set', () => {
    expect(loadConfig({}).wallet).toEqual({ kind: 'sandbox' });
  });

  it('is PayPal with all three set, in its sandbox environment unless PAYPAL_ENV=live', () => {
    expect(loadConfig(PAYPAL).wallet).toEqual({
      kind: 'paypal',
      clientId: 'client-id',
      clientSecret: 'secret',
      webhookId: 'WH-1',
      environment: 'sandbox',
      apiBase: null,
    });
    expect(loadConfig({ ...PAYPAL, PAYPAL_ENV: 'live' }).wallet).toMatchObject({ environment: 'live' });
  });

  it.each([
    [{ PAYPAL_CLIENT_ID: 'id', PAYPAL_CLIENT_SECRET: 'secret' }, 'PAYPAL_WEBHOOK_ID'],
    [{ PAYPAL_CLIENT_ID: 'id', PAYPAL_WEBHOOK_ID: 'WH' }, 'PAYPAL_CLIENT_SECRET'],
    [{ PAYPAL_CLIENT_SECRET: 'secret' }, 'PAYPAL_CLIENT_ID'],
    [{ ...PAYPAL, PAYPAL_ENV: 'production' }, 'PAYPAL_ENV'],
    [{ ...PAYPAL, PAYPAL_API_BASE: 'not a url' }, 'PAYPAL_API_BASE'],
  ])('refuses an incomplete or wrong setting (%o) naming %s', (env, name) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(name);
  });
});

describe('createPaypalProvider', () => {
  let db: Db;
  let fake: FakePaypalApi;
  beforeAll(async () => {
    ({ db } = await getTestDatabase());
    fake = await startFakePaypalApi();
  });
  afterAll(() => fake.close());

  it('builds the sandbox wallet by default: its signature verifies, another does not', async () => {
    const wallet = createPaypalProvider(loadConfig({}).wallet, {
      db,
      jobs: testJobs(db),
      webhookSecret: 'factory-secret',
      deliver: async () => ({ statusCode: 200 }),
    });
    expect(wallet.name).toBe('paypal_sandbox');
    expect(wallet.clientId).toBeNull();
    const raw = JSON.stringify({ id: 'WH-F', event_type: 'PAYMENT.CAPTURE.COMPLETED', resource: { id: 'C' } });
    const headers = signSandboxPaypalEvent(raw, 'factory-secret', new Date());
    expect(await wallet.verifyWebhook(headers, Buffer.from(raw))).toMatchObject({
      id: 'WH-F',
      kind: 'capture_completed',
    });
    const forged = signSandboxPaypalEvent(raw, 'other', new Date());
    await expect(wallet.verifyWebhook(forged, Buffer.from(raw))).rejects.toBeInstanceOf(PaypalWebhookError);
  });

  it('builds the PayPal adapter from config, talking to PAYPAL_API_BASE', async () => {
    const config = loadConfig({
      PAYPAL_CLIENT_ID: fake.clientId,
      PAYPAL_CLIENT_SECRET: fake.clientSecret,
      PAYPAL_WEBHOOK_ID: fake.webhookId,
      PAYPAL_API_BASE: fake.url.origin,
    });
    const wallet = createPaypalProvider(config.wallet, {
      db,
      jobs: testJobs(db),
      deliver: async () => ({ statusCode: 200 }),
    });
    expect(wallet.name).toBe('paypal');
    expect(wallet.clientId).toBe(fake.clientId);
    const order = await wallet.createOrder({
      amountCents: 5_000,
      currency: 'USD',
      description: 'factory',
      customId: '1',
      invoiceId: 'keyport-order-1',
      returnUrl: 'https://portal.example.com/r',
      cancelUrl: 'https://portal.example.com/c',
      requestId: 'keyport-order-factory',
    });
    expect(fake.orders.get(order.ref)).toMatchObject({ amount: { currency_code: 'USD', value: '50.00' } });
  });
});
