/**
 * Issue 13 "Many processes": two portals on one PostgreSQL and one Redis behave as one (ADR 032). Runs when
 * TEST_DATABASE_URL and TEST_REDIS_URL are set (.ci/run sets both when they answer). Each app has its own database
 * pool and Redis connections, as two processes would; every Redis key is under a prefix unique to this run.
 */
import type { FastifyInstance } from 'fastify';
import { Redis } from 'ioredis';
import { exportJWK, generateKeyPair } from 'jose';
import { eq, sum } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { LicenseValidation } from '@keyport/shared/contracts/licenses';
import { licenseCheckins } from '../src/db/schema';
import { buildApp } from '../src/app';
import { openDatabase, type Database } from '../src/db/client';
import type { Checkin } from '../src/integrations/shared-state/port';
import { GERMAN_CONSUMER, ownedKey } from './helpers/keys';
import { claimNewKey } from './helpers/releases';
import { startSmtpSink, type SmtpSink } from './helpers/smtp-sink';
import { auth, createTestApp, signUp, testConfig, type TestApp } from './helpers/test-app';

const databaseUrl = process.env.TEST_DATABASE_URL;
const redisUrl = process.env.TEST_REDIS_URL;

describe.skipIf(!databaseUrl || !redisUrl)('two processes on one PostgreSQL and Redis', () => {
  const prefix = `keyport-test:two:${process.pid}:${Date.now()}:`;
  const env: Record<string, string> = {
    REDIS_URL: redisUrl!,
    REDIS_KEY_PREFIX: prefix,
    AUTH_RATE_LIMIT_MAX: '10',
    // Only the announcements through Redis can make the other process forget a key within this file.
    LICENSE_KEY_STATE_TTL_SECONDS: '300',
    // The flushers write when a test asks them to.
    CHECKIN_FLUSH_SECONDS: '3600',
  };
  let a: TestApp;
  let b: FastifyInstance;
  let secondDatabase: Database;
  /** A real SMTP server both portals send through (SMTP_URL). */
  let sink: SmtpSink;

  beforeAll(async () => {
    sink = await startSmtpSink();
    env.SMTP_URL = sink.url;
    // One signing key for both, as every machine of a deployment shares TOKEN_SIGNING_KEY (docs/deployment.md).
    const { privateKey } = await generateKeyPair('EdDSA', { crv: 'Ed25519', extractable: true });
    env.TOKEN_SIGNING_KEY = JSON.stringify(await exportJWK(privateKey));
    a = await createTestApp(env); // empties the tables once
    secondDatabase = await openDatabase({ kind: 'postgres', url: databaseUrl! });
    b = await buildApp(testConfig(env), { db: secondDatabase.db });
    await b.ready();
  });

  afterAll(async () => {
    await b?.close();
    await secondDatabase?.close();
    await a?.app.close();
    await sink?.close();
    const redis = new Redis(redisUrl!);
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length > 0) await redis.del(...keys);
    await redis.quit();
  });

  it('holds a rate limit of 10 across both: exactly 10 of 30 concurrent requests pass, the rest get 429', async () => {
    const apps = [a.app, b];
    const responses = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        apps[i % 2]!.inject({
          method: 'POST',
          url: '/auth/password/forgot',
          payload: { email: 'nobody-here@example.com' },
          remoteAddress: `10.0.0.${i + 1}`,
        }),
      ),
    );
    const statuses = responses.map((response) => response.statusCode);
    expect(statuses.filter((status) => status === 202)).toHaveLength(10);
    expect(statuses.filter((status) => status === 429)).toHaveLength(20);
    const refused = responses.find((response) => response.statusCode === 429)!;
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(refused.json()).toMatchObject({ code: 'rate_limited' });
  });

  it('refuses a session on one at once after it signed out on the other', async () => {
    const { token } = await signUp(a, 'two-processes@example.com');
    const me = () => b.inject({ method: 'GET', url: '/auth/me', headers: auth(token) });
    expect((await me()).statusCode).toBe(200); // now in B's session cache
    expect((await me()).statusCode).toBe(200);
    const logout = await a.app.inject({ method: 'POST', url: '/auth/logout', headers: auth(token) });
    expect(logout.statusCode).toBeLessThan(300);
    // B reads the announcement from its own Redis connection on its next turn of the event loop: well within the
    // second allowed here, and far inside the 10 s its cache would otherwise keep the session.
    await vi.waitFor(async () => expect((await me()).statusCode).toBe(401), { timeout: 1000, interval: 20 });
  });

  it('ends the other sessions in both after a password change on one', async () => {
    const password = 'correct-horse-battery';
    const { token: kept } = await signUp(a, 'changer@example.com', { password });
    const login = await b.inject({
      method: 'POST',
      url: '/auth/login',
      payload: { email: 'changer@example.com', password },
    });
    const other = login.json<{ token: string }>().token;
    expect((await b.inject({ method: 'GET', url: '/auth/me', headers: auth(other) })).statusCode).toBe(200);
    expect((await a.app.inject({ method: 'GET', url: '/auth/me', headers: auth(other) })).statusCode).toBe(200);
    const change = await a.app.inject({
      method: 'POST',
      url: '/auth/password/change',
      headers: auth(kept),
      payload: { current_password: password, new_password: 'another-horse-battery' },
    });
    expect(change.statusCode).toBe(200);
    await vi.waitFor(
      async () =>
        expect((await b.inject({ method: 'GET', url: '/auth/me', headers: auth(other) })).statusCode).toBe(401),
      { timeout: 1000, interval: 20 },
    );
    expect((await a.app.inject({ method: 'GET', url: '/auth/me', headers: auth(other) })).statusCode).toBe(401);
    expect((await b.inject({ method: 'GET', url: '/auth/me', headers: auth(kept) })).statusCode).toBe(200);
  });

  it('counts check-ins added in both once each, whichever drains them', async () => {
    const buffers = [a.app.services.sharedState.checkins!, b.services.sharedState.checkins!];
    const checkin = (i: number): Checkin => ({
      keyId: 1 + (i % 5),
      domain: i % 3 === 0 ? 'pirate.example.net' : 'shop.example.com',
      version: '3.0.0',
      edition: 'REGULAR',
      covered: i % 3 !== 0,
      at: new Date(Date.UTC(2026, 10, 23, 10, 0, i % 60)),
    });
    const adds = Array.from({ length: 300 }, (_, i) => buffers[i % 2]!.add(checkin(i)));
    const drains = Array.from({ length: 12 }, (_, i) => buffers[i % 2]!.drain(2));
    const during = (await Promise.all([Promise.all(adds).then(() => []), ...drains])).flat();
    const after = [...(await buffers[0]!.drain(1000)), ...(await buffers[1]!.drain(1000))];
    const all = [...during, ...after];
    expect(all.reduce((sum, aggregate) => sum + aggregate.count, 0)).toBe(300);
    const pirate = all.filter((aggregate) => aggregate.domain === 'pirate.example.net');
    expect(pirate.every((aggregate) => !aggregate.covered)).toBe(true);
    expect(pirate.reduce((sum, aggregate) => sum + aggregate.count, 0)).toBe(100);
  });

  async function connectKey(userToken: string, apiKey: string, domain: string): Promise<string> {
    const response = await a.app.inject({
      method: 'PUT',
      url: '/keys/',
      headers: auth(userToken),
      payload: { key: apiKey, main_url: domain },
    });
    expect(response.statusCode, response.body).toBe(200);
    return response.json<{ tokentheme: string }>().tokentheme;
  }

  const validate = async (app: FastifyInstance, body: { token: string; domain: string }, ip = '10.9.0.1') => {
    const response = await app.inject({
      method: 'POST',
      url: '/api/licenses/validate',
      payload: { theme_version: '4.2.0', theme_edition: 'PRO', ...body },
      remoteAddress: ip,
    });
    expect(response.statusCode, response.body).toBe(200);
    return response.json<LicenseValidation>();
  };

  it('validates a token through either; a new token made on one is superseded on the other without waiting for its cache', async () => {
    const user = await signUp(a, 'validator@example.com');
    const key = await claimNewKey(a, user.token, 'PRO');
    const first = await connectKey(user.token, key.apiKey, 'two-process-goods.com');
    const body = { token: first, domain: 'two-process-goods.com' };
    expect((await validate(a.app, body)).code).toBe('VALID');
    expect((await validate(b, body)).code).toBe('VALID'); // B now holds the key's state for five minutes
    const second = await connectKey(user.token, key.apiKey, 'two-process-goods.com');
    // The change is announced after A answers; B hears it within a Redis round trip, far inside its five-minute cache.
    await vi.waitFor(async () => expect((await validate(b, body)).code).toBe('TOKEN_SUPERSEDED'), { timeout: 2000 });
    expect((await validate(b, { ...body, token: second })).code).toBe('VALID');
  });

  it('counts validations served by both once each after the flush, whichever process flushes', async () => {
    const user = await signUp(a, 'counted@example.com');
    const key = await claimNewKey(a, user.token, 'PRO');
    const token = await connectKey(user.token, key.apiKey, 'counted-twice-never.com');
    await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        validate(i % 2 ? a.app : b, { token, domain: 'counted-twice-never.com' }, `10.9.1.${i + 1}`),
      ),
    );
    await Promise.all([a.app.services.checkinFlusher.flush(), b.services.checkinFlusher.flush()]);
    await Promise.all([a.app.services.checkinFlusher.flush(), b.services.checkinFlusher.flush()]);
    const [row] = await a.db
      .select({ count: sum(licenseCheckins.count) })
      .from(licenseCheckins)
      .where(eq(licenseCheckins.keyId, key.id));
    expect(Number(row!.count)).toBe(40);
  });

  /** Each process's worker sends what it claims after the commits' nudges; this waits for both to be done. */
  const drainEmails = () => Promise.all([a.app.services.outbox.flush(), b.services.outbox.flush()]);
  const receivedTo = (email: string, subject: string) =>
    sink.received.filter((message) => message.to.includes(email) && message.subject.startsWith(subject));

  it('sends each of 20 password-reset emails exactly once through a real SMTP server, whichever process queued it', async () => {
    const emails = Array.from({ length: 20 }, (_, i) => `reset-twice-never-${i}@example.com`);
    for (const [i, email] of emails.entries()) await signUp(a, email, { ip: `10.3.0.${i + 1}` });
    const apps = [a.app, b];
    const responses = await Promise.all(
      emails.map((email, i) =>
        apps[i % 2]!.inject({
          method: 'POST',
          url: '/auth/password/forgot',
          payload: { email },
          remoteAddress: `10.2.0.${i + 1}`,
        }),
      ),
    );
    expect(responses.map((response) => response.statusCode)).toEqual(emails.map(() => 202));
    // Nobody asks for them: the workers' nudges after each commit (and their polls) send every one.
    await vi.waitFor(
      () =>
        expect(emails.filter((email) => receivedTo(email, 'Reset your Keyport password').length > 0)).toEqual(emails),
      { timeout: 20_000, interval: 100 },
    );
    await drainEmails();
    for (const email of emails) expect(receivedTo(email, 'Reset your Keyport password'), email).toHaveLength(1);
  });

  it('sends each card receipt exactly once when the payment is confirmed on one process and synced on the other', async () => {
    const payers = await Promise.all(
      Array.from({ length: 10 }, (_, i) => signUp(a, `receipt-once-${i}@example.com`, { ip: `10.4.0.${i + 1}` })),
    );
    const emails = payers.map((_, i) => `receipt-once-${i}@example.com`);
    await Promise.all(
      payers.map(async ({ token, id }, i) => {
        const key = await ownedKey(a, id, 'LITE');
        const started = await a.app.inject({
          method: 'POST',
          url: '/stripe/payment-intents',
          headers: auth(token),
          payload: {
            price_id: 'price_sandbox_lite_to_regular',
            theme_type: 'REGULAR',
            key,
            billing: { ...GERMAN_CONSUMER, email: emails[i] },
          },
        });
        expect(started.statusCode, started.body).toBe(200);
        const paymentId = started.json<{ payment_intent: { id: string } }>().payment_intent.id;
        const confirmed = await b.inject({
          method: 'POST',
          url: '/sandbox/stripe/confirm',
          headers: auth(token),
          payload: { payment_intent_id: paymentId, card_number: '4242 4242 4242 4242' },
        });
        expect(confirmed.statusCode, confirmed.body).toBe(200);
        const synced = await a.app.inject({
          method: 'POST',
          url: `/stripe/payment-intents/${paymentId}/sync`,
          headers: auth(token),
        });
        expect(synced.statusCode, synced.body).toBe(200);
      }),
    );
    await vi.waitFor(
      () => expect(emails.filter((email) => receivedTo(email, 'Your Keyport receipt').length > 0)).toEqual(emails),
      { timeout: 20_000, interval: 100 },
    );
    await drainEmails();
    for (const email of emails) expect(receivedTo(email, 'Your Keyport receipt'), email).toHaveLength(1);
  });
});
