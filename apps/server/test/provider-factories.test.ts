/**
 * Configuration picks the adapters (house style 5): the sandbox payment provider and the VIES sandbox by default;
 * Stripe when its keys are set, the VIES REST service with VIES_ADAPTER=vies. Each choice is exercised through
 * loadConfig, the way a deployment makes it, against the local fakes.
 */
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config';
import type { Db } from '../src/db/client';
import { createPaymentProvider, type SandboxDependencies } from '../src/integrations/payments/create-payment-provider';
import { WebhookVerificationError } from '../src/integrations/payments/port';
import { createVatChecker } from '../src/integrations/vies/create-vat-checker';
import { startFakeStripeApi, type FakeStripeApi } from './fakes/stripe-api';
import { startFakeViesApi, type FakeViesApi } from './fakes/vies-api';
import { testJobs } from './helpers/jobs';
import { getTestDatabase, resetDatabase } from './helpers/test-app';

const silent = { info: () => {}, warn: () => {}, error: () => {} };

describe('createPaymentProvider', () => {
  let db: Db;
  let stripeApi: FakeStripeApi;
  let delivered: { body: string; signature: string }[];
  let sandboxDeps: SandboxDependencies;
  beforeAll(async () => {
    ({ db } = await getTestDatabase());
    await resetDatabase(db);
    stripeApi = await startFakeStripeApi('sk_test_factory');
    delivered = [];
    sandboxDeps = {
      db,
      jobs: testJobs(db),
      retry: { maxAttempts: 1, backoff: { baseMs: 10, maxMs: 10 } },
      deliver: async (body, signature) => {
        delivered.push({ body, signature });
        return { statusCode: 200 };
      },
    };
  });
  afterAll(() => stripeApi.close());

  it('is the sandbox when no Stripe key is configured, with a webhook secret of its own', async () => {
    const provider = createPaymentProvider(loadConfig({}).payments, sandboxDeps);
    expect(provider.name).toBe('sandbox');
    expect(provider.publishableKey).toBe('pk_sandbox_keyport');
    if (provider.name !== 'sandbox') throw new Error('expected the sandbox');

    const payment = await provider.createPayment({
      amountCents: 12_000,
      currency: 'usd',
      description: 'Keyport upgrade',
      metadata: { order_id: '1' },
      receiptEmail: null,
      idempotencyKey: 'factory-1',
    });
    expect(payment.ref).toMatch(/^pi_sandbox_/);
    await provider.confirmPayment(payment.ref, { outcome: 'succeeded' });
    await provider.idle();
    const [{ body, signature }] = delivered as [{ body: string; signature: string }];
    expect(provider.verifyWebhook(Buffer.from(body), signature)).toMatchObject({ kind: 'payment_authorized' });
    // Each process (each provider) signs with its own secret: another one's events do not verify.
    const other = createPaymentProvider(loadConfig({}).payments, { ...sandboxDeps, jobs: testJobs(db) });
    expect(() => other.verifyWebhook(Buffer.from(body), signature)).toThrow(WebhookVerificationError);
  });

  it('is Stripe, at STRIPE_API_BASE, when the three Stripe variables are set', async () => {
    const config = loadConfig({
      STRIPE_SECRET_KEY: 'sk_test_factory',
      STRIPE_PUBLISHABLE_KEY: 'pk_test_factory',
      STRIPE_WEBHOOK_SECRET: 'whsec_factory',
      STRIPE_API_BASE: stripeApi.url.toString(),
    });
    const provider = createPaymentProvider(config.payments, sandboxDeps);
    expect(provider.name).toBe('stripe');
    expect(provider.publishableKey).toBe('pk_test_factory');
    expect('confirmPayment' in provider).toBe(false);

    const payment = await provider.createPayment({
      amountCents: 22_000,
      currency: 'usd',
      description: 'Keyport upgrade',
      metadata: { order_id: '2' },
      receiptEmail: null,
      idempotencyKey: 'factory-2',
    });
    expect(stripeApi.intents.get(payment.ref)?.amount).toBe(22_000);

    const body = JSON.stringify({ id: 'evt_1', type: 'payment_intent.succeeded', data: { object: { id: 'pi_1' } } });
    const signature = Stripe.webhooks.generateTestHeaderString({ payload: body, secret: 'whsec_factory' });
    expect(provider.verifyWebhook(Buffer.from(body), signature)).toMatchObject({ paymentRef: 'pi_1' });
  });
});

describe('createVatChecker', () => {
  let vies: FakeViesApi;
  beforeAll(async () => {
    vies = await startFakeViesApi();
  });
  afterAll(() => vies.close());

  it('is the sandbox by default', async () => {
    const checker = createVatChecker(loadConfig({}), silent);
    expect(checker.name).toBe('sandbox');
    expect(await checker.check('DE123456789')).toMatchObject({ status: 'valid' });
    expect(vies.requests).toEqual([]);
  });

  it('is VIES at VIES_API_URL with VIES_ADAPTER=vies, the seller VAT ID as requester', async () => {
    vies.numbers.set('DE811569869', { kind: 'registered', name: 'Muster GmbH', address: 'München' });
    const config = loadConfig({ VIES_ADAPTER: 'vies', VIES_API_URL: vies.url, SELLER_VAT_ID: 'ie6388047v' });
    const checker = createVatChecker(config, silent);
    expect(checker.name).toBe('vies');
    expect(await checker.check('DE811569869')).toMatchObject({
      status: 'valid',
      companyName: 'Muster GmbH',
      consultationNumber: expect.any(String),
    });
    expect(vies.requests.at(-1)?.body).toMatchObject({ requesterMemberStateCode: 'IE', requesterNumber: '6388047V' });
  });

  it('checks without a requester, and says so, when the seller VAT ID is not a member state number', async () => {
    const warnings: string[] = [];
    const config = loadConfig({ VIES_ADAPTER: 'vies', VIES_API_URL: vies.url, SELLER_VAT_ID: 'GB123456789' });
    const warn = (...args: unknown[]) => void warnings.push(String(args[1]));
    const checker = createVatChecker(config, { warn } as never);
    expect(warnings).toEqual([expect.stringContaining('SELLER_VAT_ID')]);
    await checker.check('DE811569869');
    expect(vies.requests.at(-1)?.body).toEqual({ countryCode: 'DE', vatNumber: '811569869' });
  });
});
