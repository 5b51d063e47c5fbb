import { PassThrough } from 'node:stream';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { analyticsOutbox, jobs } from '../src/db/schema';
import { createKlaviyoAdapter, KLAVIYO_REVISION } from '../src/integrations/analytics/klaviyo-adapter';
import { AnalyticsDeliveryError } from '../src/integrations/analytics/port';
import { createAnalyticsService } from '../src/modules/analytics/analytics.service';
import { createJobs } from '../src/modules/jobs/jobs.service';
import { createRateLimiter } from '../src/http/rate-limit';
import { createMemoryWindowCounter } from '../src/integrations/shared-state/memory-window-counter';
import { startFakeKlaviyoApi, type FakeKlaviyoApi } from './fakes/klaviyo-api';
import { auth, createTestApp, signUp, type TestApp } from './helpers/test-app';

let fake: FakeKlaviyoApi;
let t: TestApp;
/** The analytics outbox's clock: the tests move it to simulate minutes of provider downtime. */
let clock = Date.parse('2026-03-02T10:00:00Z');
const logs: Record<string, unknown>[] = [];
let people = 0;

beforeAll(async () => {
  fake = await startFakeKlaviyoApi();
  const destination = new PassThrough();
  destination.on('data', (chunk: Buffer) => {
    for (const line of chunk.toString('utf8').split('\n')) if (line.trim()) logs.push(JSON.parse(line));
  });
  t = await createTestApp(
    {
      LOG_LEVEL: 'warn',
      KLAVIYO_PRIVATE_KEY: fake.privateKey,
      KLAVIYO_API_BASE: fake.url,
      // Long enough that a loaded machine never turns the fake's quick answers into timeouts (the hang test waits it).
      KLAVIYO_TIMEOUT_MS: '2000',
    },
    // The job engine's poll is slow here so each pass the test makes is the only one (the after-commit nudge still
    // runs); its clock is the test's.
    { analyticsDelivery: { now: () => new Date(clock) }, jobs: { now: () => new Date(clock), pollMs: 3_600_000 } },
    destination,
  );
});
afterAll(() => fake.close());
beforeEach(() => fake.setMode('up'));

const newUser = () => signUp(t, `shopper-${++people}@example.com`);
const track = (token: string | null, payload: object) =>
  t.app.inject({ method: 'POST', url: '/api/klaviyo/track', headers: token ? auth(token) : {}, payload });
const identify = (token: string | null, payload: object) =>
  t.app.inject({ method: 'PUT', url: '/api/klaviyo/track', headers: token ? auth(token) : {}, payload });
const deliverDue = () => t.app.services.analytics.deliverDue();
/** The delivery job of an outbox row (the job engine keeps its attempts, last error and state). */
const jobOf = async (outboxId: number) => {
  const rows = await t.db
    .select()
    .from(jobs)
    .where(sql`${jobs.kind} = 'analytics.deliver' and (${jobs.payload} ->> 'outboxId')::int = ${outboxId}`);
  expect(rows).toHaveLength(1);
  return rows[0]!;
};
/** A second engine on the same database, as another process would run (its clock is the test's too). */
const anotherEngine = () => createJobs({ db: t.db, log: t.app.log, now: () => new Date(clock), pollMs: 3_600_000 });
const eventRequests = (uniqueId: string) =>
  fake.requests.filter(
    (request) =>
      request.path === '/api/events' &&
      (request.body as { data: { attributes: { unique_id: string } } }).data.attributes.unique_id === uniqueId,
  );

describe('the Klaviyo adapter, against a local fake of its API', () => {
  it('sends an event as JSON:API with the private key, the revision header and the unique id', async () => {
    const adapter = createKlaviyoAdapter({ privateKey: fake.privateKey, baseUrl: fake.url });
    const before = fake.requests.length;
    await adapter.sendEvent({
      uniqueId: 'upgrade-order-9001',
      email: 'ada@example.com',
      name: 'Completed Upgrade Purchase',
      properties: { license_key: 'LK-1', upgrade_from: 'LITE', upgrade_to: 'PRO' },
      value: 320,
      time: new Date('2026-03-01T12:00:00Z'),
    });
    const request = fake.requests[before]!;
    expect(request.method).toBe('POST');
    expect(request.path).toBe('/api/events');
    expect(request.headers.authorization).toBe(`Klaviyo-API-Key ${fake.privateKey}`);
    expect(request.headers.revision).toBe(KLAVIYO_REVISION);
    expect(request.headers['content-type']).toBe('application/vnd.api+json');
    expect(request.body).toEqual({
      data: {
        type: 'event',
        attributes: {
          properties: { license_key: 'LK-1', upgrade_from: 'LITE', upgrade_to: 'PRO' },
          time: '2026-03-01T12:00:00.000Z',
          value: 320,
          value_currency: 'USD',
          unique_id: 'upgrade-order-9001',
          metric: { data: { type: 'metric', attributes: { name: 'Completed Upgrade Purchase' } } },
          profile: { data: { type: 'profile', attributes: { email: 'ada@example.com' } } },
        },
      },
    });
    expect(fake.events.at(-1)).toMatchObject({ email: 'ada@example.com', uniqueId: 'upgrade-order-9001', value: 320 });
  });

  it('imports a profile by email', async () => {
    const adapter = createKlaviyoAdapter({ privateKey: fake.privateKey, baseUrl: fake.url });
    await adapter.upsertProfile({
      email: 'ada@example.com',
      firstName: 'Ada',
      lastName: 'Lovelace',
      phoneNumber: '+14155550123',
      properties: { plan: 'PRO' },
    });
    const request = fake.requests.at(-1)!;
    expect(request.path).toBe('/api/profile-import');
    expect(request.headers.revision).toBe(KLAVIYO_REVISION);
    expect(request.body).toEqual({
      data: {
        type: 'profile',
        attributes: {
          email: 'ada@example.com',
          first_name: 'Ada',
          last_name: 'Lovelace',
          phone_number: '+14155550123',
          properties: { plan: 'PRO' },
        },
      },
    });
  });

  it('tells retryable failures (down, throttled, no answer) from refusals (a wrong key)', async () => {
    const event = {
      uniqueId: 'x-1',
      email: 'ada@example.com',
      name: 'Active on Site',
      properties: {},
      value: null,
      time: new Date(),
    };
    const adapter = createKlaviyoAdapter({ privateKey: fake.privateKey, baseUrl: fake.url, timeoutMs: 200 });
    const failure = (promise: Promise<unknown>) =>
      promise.then(
        () => null,
        (error: unknown) => error as AnalyticsDeliveryError,
      );
    fake.setMode('down');
    expect(await failure(adapter.sendEvent(event))).toMatchObject({ retryable: true, status: 503 });
    fake.setMode('throttle');
    expect(await failure(adapter.sendEvent(event))).toMatchObject({ retryable: true, status: 429 });
    fake.setMode('hang');
    expect(await failure(adapter.sendEvent(event))).toMatchObject({ retryable: true, status: null });
    fake.setMode('up');
    const wrongKey = createKlaviyoAdapter({ privateKey: 'pk_wrong', baseUrl: fake.url });
    const refused = await failure(wrongKey.sendEvent(event));
    expect(refused).toBeInstanceOf(AnalyticsDeliveryError);
    expect(refused).toMatchObject({ retryable: false, status: 401 });
    expect(refused!.message).not.toContain('pk_wrong');
  });
});

describe('POST and PUT /api/klaviyo/track', () => {
  it('answers 401 without a session, before looking at the body', async () => {
    expect((await track(null, { eventName: 'Active on Site' })).statusCode).toBe(401);
    expect((await identify(null, { firstName: 'A' })).statusCode).toBe(401);
    expect((await track(null, { eventName: 'Not an event' })).json()).toMatchObject({ code: 'unauthorized' });
  });

  it('answers 400 with {error, code} for bad bodies and stores nothing', async () => {
    const { token, id } = await newUser();
    const bad: object[] = [
      {},
      { eventName: 'Deleted Account' },
      { eventName: 'Active on Site', properties: 'not an object' },
      { eventName: 'Active on Site', properties: { nested: { deep: true } } },
      {
        eventName: 'Active on Site',
        properties: Object.fromEntries(Array.from({ length: 41 }, (_, i) => [`p${i}`, 1])),
      },
      {
        eventName: 'Active on Site',
        properties: Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`p${i}`, 'x'.repeat(450)])),
      },
      { eventName: 'Active on Site', value: -1 },
      { eventName: 'Active on Site', unique_id: 'has spaces' },
      { eventName: 'Active on Site', unique_id: 'x'.repeat(101) },
    ];
    for (const payload of bad) {
      const response = await track(token, payload);
      expect(response.statusCode, JSON.stringify(payload).slice(0, 80)).toBe(400);
      expect(response.json()).toEqual({ error: expect.any(String), code: expect.any(String) });
    }
    for (const payload of [{ phoneNumber: '0123 not a number' }, { firstName: 'x'.repeat(101) }, { properties: [] }]) {
      expect((await identify(token, payload)).statusCode).toBe(400);
    }
    expect(await t.db.select().from(analyticsOutbox).where(eq(analyticsOutbox.userId, id))).toEqual([]);
  });

  it("puts the event on the caller's own profile, whatever email the body names", async () => {
    const { token } = await newUser();
    const email = `shopper-${people}@example.com`;
    const response = await track(token, {
      email: 'someone-else@example.com',
      eventName: 'Selected Upgrade',
      properties: { upgrade_from: 'LITE', upgrade_to: 'PRO', price: 320 },
      value: 320,
      unique_id: 'selected-1',
    });
    expect(response.statusCode).toBe(202);
    expect(response.json()).toEqual({ queued: true });
    const profile = await identify(token, {
      email: 'someone-else@example.com',
      firstName: 'Shopper',
      phoneNumber: '+14155550123',
    });
    expect(profile.statusCode).toBe(202);
    await deliverDue();
    expect(fake.events.filter((event) => event.uniqueId === 'selected-1')).toEqual([
      // Issue 19: a browser event's value and money properties are dropped (analytics-forgery.test.ts).
      expect.objectContaining({ email, metric: 'Selected Upgrade', value: null }),
    ]);
    expect(fake.events.some((event) => event.email === 'someone-else@example.com')).toBe(false);
    expect(fake.profiles.at(-1)).toMatchObject({ email, first_name: 'Shopper', phone_number: '+14155550123' });
  });

  it('stores a repeated unique id once (browser and server copies of one event)', async () => {
    const { token, id } = await newUser();
    for (let i = 0; i < 3; i++) {
      expect((await track(token, { eventName: 'Viewed Upgrade Options', unique_id: 'view-1' })).statusCode).toBe(202);
    }
    await deliverDue();
    const rows = await t.db.select().from(analyticsOutbox).where(eq(analyticsOutbox.userId, id));
    expect(rows).toHaveLength(1);
    expect(eventRequests('view-1')).toHaveLength(1);
  });

  it('answers 202 while the provider hangs: the request never waits on it', async () => {
    const { token, id } = await newUser();
    fake.setMode('hang');
    const hangingBefore = fake.requests.length;
    const response = await track(token, { eventName: 'Active on Site', unique_id: 'hang-1' });
    expect(response.statusCode).toBe(202);
    // Answered although the provider never answers: the event waits in the outbox, undelivered.
    const [row] = await t.db.select().from(analyticsOutbox).where(eq(analyticsOutbox.userId, id));
    expect(row).toMatchObject({ deliveredAt: null });
    await deliverDue(); // the nudged pass: the fake holds the request until the adapter's timeout
    expect(fake.requests.length).toBeGreaterThan(hangingBefore);
    const [after] = await t.db.select().from(analyticsOutbox).where(eq(analyticsOutbox.userId, id));
    expect(after).toMatchObject({ deliveredAt: null });
    const job = await jobOf(after!.id);
    expect(job).toMatchObject({ status: 'queued', attempts: 1 });
    expect(job.lastError).toContain('no answer');
    fake.setMode('up');
    clock += 60_000;
    await deliverDue();
    expect(eventRequests('hang-1').length).toBeGreaterThanOrEqual(2);
    expect(fake.events.filter((event) => event.uniqueId === 'hang-1')).toHaveLength(1);
  });
});

describe('the per-user limit', () => {
  it('answers 429 with Retry-After past 120 calls in 10 minutes, for that user only', async () => {
    const { token } = await newUser();
    for (let i = 0; i < 120; i++) {
      expect((await track(token, { eventName: 'Viewed Upgrade Options' })).statusCode).toBe(202);
    }
    const refused = await track(token, { eventName: 'Viewed Upgrade Options' });
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toMatchObject({ code: 'rate_limited' });
    expect(refused.headers['retry-after']).toBeDefined();
    expect((await identify(token, { firstName: 'Again' })).statusCode).toBe(429);
    const other = await newUser();
    expect((await track(other.token, { eventName: 'Viewed Upgrade Options' })).statusCode).toBe(202);
    await deliverDue();
  });
});

describe('Klaviyo down for a minute', () => {
  it('delivers every event exactly once after it returns, with backoff, logging each failing event once', async () => {
    const { token } = await newUser();
    const ids = Array.from({ length: 5 }, (_, i) => `outage-${i}`);
    const logsBefore = logs.length;
    const requestsBefore = fake.requests.length;
    fake.setMode('down');
    for (const uniqueId of ids) {
      const response = await track(token, { eventName: 'Started Upgrade Checkout', unique_id: uniqueId });
      expect(response.statusCode).toBe(202);
    }
    // A pass every 5 simulated seconds for a minute, with the provider down all along.
    for (let second = 0; second <= 60; second += 5) {
      await deliverDue();
      clock += 5_000;
    }
    const duringOutage = fake.requests.slice(requestsBefore);
    for (const uniqueId of ids) {
      const tries = duringOutage.filter(
        (request) =>
          (request.body as { data: { attributes: { unique_id: string } } }).data.attributes.unique_id === uniqueId,
      ).length;
      // Backoff (5 s, 10 s, 20 s, 40 s …): 4 tries in the minute, not one per pass (13 passes).
      expect(tries).toBeGreaterThanOrEqual(3);
      expect(tries).toBeLessThanOrEqual(5);
    }
    const failureLines = logs.slice(logsBefore).filter((line) => String(line.msg).startsWith('analytics delivery'));
    expect(failureLines).toHaveLength(ids.length);
    expect(failureLines.every((line) => line.msg === 'analytics delivery failed; retrying with backoff')).toBe(true);
    expect(JSON.stringify(failureLines)).not.toContain(fake.privateKey);

    fake.setMode('up');
    clock += 120_000;
    await deliverDue();
    await deliverDue();
    for (const uniqueId of ids) {
      expect(fake.events.filter((event) => event.uniqueId === uniqueId)).toHaveLength(1);
    }
    const pending = (await t.db.select().from(analyticsOutbox)).filter((row) => ids.includes(row.uniqueId));
    expect(pending.every((row) => row.deliveredAt !== null)).toBe(true);
    for (const row of pending) expect((await jobOf(row.id)).status).toBe('done');
    expect(logs.slice(logsBefore).filter((line) => String(line.msg).startsWith('analytics delivery'))).toHaveLength(
      ids.length,
    );
  });

  it('gives a row up after its last attempt and logs that once more', async () => {
    const { id } = await newUser();
    const quick = createAnalyticsService({
      db: t.db,
      jobs: anotherEngine(),
      port: createKlaviyoAdapter({ privateKey: fake.privateKey, baseUrl: fake.url, timeoutMs: 2000 }),
      resolveEmail: async () => 'given-up@example.com',
      trackLimit: createRateLimiter(createMemoryWindowCounter(), { name: 'analytics', max: 100, windowMs: 60_000 }),
      delivery: { maxAttempts: 3, baseDelayMs: 1_000 },
      now: () => new Date(clock),
    });
    await quick.enqueue(t.db, {
      userId: id,
      name: 'Completed Upgrade Purchase',
      uniqueId: 'doomed-1',
      properties: {},
      value: 1,
    });
    const logsBefore = logs.length;
    fake.setMode('down');
    for (let i = 0; i < 10; i++) {
      await quick.deliverDue();
      clock += 10_000;
    }
    expect(eventRequests('doomed-1')).toHaveLength(3);
    const [row] = await t.db.select().from(analyticsOutbox).where(eq(analyticsOutbox.uniqueId, 'doomed-1'));
    const lines = logs
      .slice(logsBefore)
      .filter((line) => line.analyticsOutboxId === row!.id)
      .map((line) => line.msg);
    expect(lines).toEqual(['analytics delivery failed; retrying with backoff', 'analytics delivery given up']);
    expect(row).toMatchObject({ deliveredAt: null });
    const job = await jobOf(row!.id);
    expect(job).toMatchObject({ status: 'dead', attempts: 3 });
    expect(job.finishedAt).not.toBeNull();
  });
});

describe('two workers never send one row twice', () => {
  it('splits the due rows between two job engines on one database', async () => {
    const { id } = await newUser();
    const second = createAnalyticsService({
      db: t.db,
      jobs: anotherEngine(),
      port: createKlaviyoAdapter({ privateKey: fake.privateKey, baseUrl: fake.url }),
      resolveEmail: async () => 'worker@example.com',
      trackLimit: createRateLimiter(createMemoryWindowCounter(), { name: 'analytics', max: 100, windowMs: 60_000 }),
      now: () => new Date(clock),
    });
    const ids = Array.from({ length: 30 }, (_, i) => `parallel-${i}`);
    await t.db.transaction(async (tx) => {
      for (const uniqueId of ids) {
        await second.enqueue(tx, { userId: id, name: 'Active on Site', uniqueId, properties: {}, value: null });
      }
    });
    await Promise.all([deliverDue(), second.deliverDue(), deliverDue(), second.deliverDue()]);
    for (const uniqueId of ids) expect(eventRequests(uniqueId)).toHaveLength(1);
  });
});
