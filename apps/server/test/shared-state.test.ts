/**
 * The shared-state adapters (ADR 032): the memory ones always, the Redis ones when TEST_REDIS_URL names a Redis
 * (every key under a prefix unique to this run, removed afterwards). The same contract tests run on both.
 */
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { AppError } from '../src/http/errors';
import { createRateLimiter } from '../src/http/rate-limit';
import { createMemoryRevocations } from '../src/integrations/shared-state/memory-revocations';
import { createMemoryWindowCounter } from '../src/integrations/shared-state/memory-window-counter';
import type { Checkin, WindowCounter } from '../src/integrations/shared-state/port';
import { createRedisCheckinBuffer } from '../src/integrations/shared-state/redis-checkins';
import { createRedisRevocations } from '../src/integrations/shared-state/redis-revocations';
import { createRedisWindowCounter } from '../src/integrations/shared-state/redis-window-counter';

const redisUrl = process.env.TEST_REDIS_URL;
const prefix = `keyport-test:shared-state:${process.pid}:${Date.now()}:`;
const clients: Redis[] = [];

function redisClient(): Redis {
  const client = new Redis(redisUrl!, { maxRetriesPerRequest: 1 });
  clients.push(client);
  return client;
}

afterAll(async () => {
  if (clients.length === 0) return;
  const keys = await clients[0]!.keys(`${prefix}*`);
  if (keys.length > 0) await clients[0]!.del(...keys);
  await Promise.all(clients.map((client) => client.quit()));
});

async function refusal(promise: Promise<unknown>): Promise<AppError> {
  const error = await promise.then(
    () => null,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(AppError);
  return error as AppError;
}

function windowCounterContract(name: string, make: () => WindowCounter) {
  describe(`${name} window counter`, () => {
    it('counts within a window, answers when it resets, peeks without counting and resets', async () => {
      const counter = make();
      const before = Date.now();
      const first = await counter.incr('a', 60_000);
      expect(first.count).toBe(1);
      expect(first.resetAt).toBeGreaterThanOrEqual(before + 59_000);
      expect(first.resetAt).toBeLessThanOrEqual(Date.now() + 60_000);
      expect((await counter.incr('a', 60_000, 2)).count).toBe(3);
      expect((await counter.peek('a'))?.count).toBe(3);
      expect((await counter.peek('a'))?.count).toBe(3);
      expect(await counter.peek('never-counted')).toBeNull();
      expect((await counter.incr('b', 60_000)).count).toBe(1);
      await counter.reset('a');
      expect(await counter.peek('a')).toBeNull();
      expect((await counter.incr('a', 60_000)).count).toBe(1);
    });

    it('starts a new window once the old one is over', async () => {
      const counter = make();
      await counter.incr('short', 1);
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(await counter.peek('short')).toBeNull();
      expect((await counter.incr('short', 60_000)).count).toBe(1);
    });

    it('limits through it: hit refuses past max with Retry-After, failures-only limits check then record', async () => {
      const limiter = createRateLimiter(make(), { name: 'contract', max: 3, windowMs: 60_000, message: 'Slow down.' });
      for (let i = 0; i < 3; i += 1) await limiter.hit('k');
      const refused = await refusal(limiter.hit('k'));
      expect(refused.statusCode).toBe(429);
      expect(refused.message).toBe('Slow down.');
      expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(59);
      await limiter.hit('other-key');

      const failures = createRateLimiter(make(), { name: 'failures', max: 2, windowMs: 60_000 });
      await failures.assertAllowed('f');
      await failures.record('f');
      await failures.assertAllowed('f');
      await failures.record('f');
      expect((await refusal(failures.assertAllowed('f'))).statusCode).toBe(429);
      await failures.reset('f');
      await failures.assertAllowed('f');
    });

    it('keeps two limiters with the same keys apart', async () => {
      const counter = make();
      const one = createRateLimiter(counter, { name: 'one', max: 1, windowMs: 60_000 });
      const two = createRateLimiter(counter, { name: 'two', max: 1, windowMs: 60_000 });
      await one.hit('same');
      await two.hit('same');
      await refusal(one.hit('same'));
    });
  });
}

windowCounterContract('memory', () => createMemoryWindowCounter());

describe('memory session revocations', () => {
  it("calls this process's listeners before revoke resolves", async () => {
    const revocations = createMemoryRevocations();
    const seen: string[] = [];
    revocations.onRevoked((hash) => seen.push(hash));
    await revocations.revoke('h1');
    expect(seen).toEqual(['h1']);
    await revocations.close();
  });
});

describe.skipIf(!redisUrl)('Redis adapters (TEST_REDIS_URL)', () => {
  let run = 0;
  windowCounterContract('Redis', () => createRedisWindowCounter(redisClient(), `${prefix}${(run += 1)}:`));

  it('counts one window across connections: 30 concurrent hits, exactly 10 allowed', async () => {
    const [a, b] = [redisClient(), redisClient()];
    const limiters = [a, b].map((client) =>
      createRateLimiter(createRedisWindowCounter(client, `${prefix}race:`), {
        name: 'race',
        max: 10,
        windowMs: 60_000,
      }),
    );
    const outcomes = await Promise.allSettled(Array.from({ length: 30 }, (_, i) => limiters[i % 2]!.hit('k')));
    expect(outcomes.filter((outcome) => outcome.status === 'fulfilled')).toHaveLength(10);
  });

  it('sets an expiry on every window key', async () => {
    const client = redisClient();
    const counter = createRedisWindowCounter(client, `${prefix}ttl:`);
    await counter.incr('k', 60_000);
    const ttl = await client.pttl(`${prefix}ttl:rl:k`);
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(60_000);
  });

  it('tells the revoking connection before revoke resolves, and every other connection of the deployment', async () => {
    const one = createRedisRevocations(redisClient(), `${prefix}rev:`);
    const two = createRedisRevocations(redisClient(), `${prefix}rev:`);
    const other = createRedisRevocations(redisClient(), `${prefix}another-deployment:`);
    const seen = { one: [] as string[], two: [] as string[], other: [] as string[] };
    one.onRevoked((hash) => seen.one.push(hash));
    two.onRevoked((hash) => seen.two.push(hash));
    other.onRevoked((hash) => seen.other.push(hash));
    await two.revoke('warm-up'); // both subscriptions are in place once a message went round
    await one.revoke('hash-1');
    expect(seen.one).toContain('hash-1');
    // Redis has written the message to every subscriber by the time `one` sees its echo, but Node may read the other
    // connection's socket a turn of the event loop later (CI saw exactly that), so wait for it briefly.
    await vi.waitFor(() => expect(seen.two).toContain('hash-1'), { timeout: 2000 });
    await one.revoke('hash-2');
    await vi.waitFor(() => expect(seen.two).toContain('hash-2'), { timeout: 2000 });
    expect(seen.other).toEqual([]);
    await Promise.all([one.close(), two.close(), other.close()]);
  });

  const checkin = (over: Partial<Checkin> = {}): Checkin => ({
    keyId: 7,
    domain: 'shop.example.com',
    version: '2.1.0',
    edition: 'PRO',
    covered: true,
    at: new Date('2026-11-23T10:00:00Z'),
    ...over,
  });

  it('aggregates check-ins per key, domain, version, edition and coverage, with the first and last time', async () => {
    const buffer = createRedisCheckinBuffer(redisClient(), `${prefix}agg:`);
    await buffer.add(checkin({ at: new Date('2026-11-23T10:00:05Z') }));
    await buffer.add(checkin({ at: new Date('2026-11-23T10:00:01Z') }));
    await buffer.add(checkin({ at: new Date('2026-11-23T10:00:09Z') }));
    await buffer.add(checkin({ domain: 'pirate.example.net', covered: false }));
    await buffer.add(checkin({ version: '2.0.0', edition: 'LITE' }));
    const drained = await buffer.drain(100);
    expect(drained).toHaveLength(3);
    expect(drained.find((a) => a.domain === 'shop.example.com' && a.version === '2.1.0')).toEqual({
      keyId: 7,
      domain: 'shop.example.com',
      version: '2.1.0',
      edition: 'PRO',
      covered: true,
      count: 3,
      firstAt: new Date('2026-11-23T10:00:01Z'),
      lastAt: new Date('2026-11-23T10:00:09Z'),
    });
    expect(drained.find((a) => a.domain === 'pirate.example.net')).toMatchObject({ covered: false, count: 1 });
    expect(await buffer.drain(100)).toEqual([]);
  });

  it('drains at most max aggregates, and never the same counts twice from two connections', async () => {
    const [a, b] = [redisClient(), redisClient()].map((client) => createRedisCheckinBuffer(client, `${prefix}two:`));
    const adds: Promise<void>[] = [];
    for (let i = 0; i < 200; i += 1) adds.push((i % 2 ? a : b)!.add(checkin({ keyId: i % 20 })));
    const drains: Promise<{ count: number }[]>[] = [];
    for (let i = 0; i < 10; i += 1) drains.push((i % 2 ? a : b)!.drain(3));
    const during = (await Promise.all([...drains, Promise.all(adds).then(() => [])])).flat();
    const first = await a!.drain(5);
    expect(first.length).toBeLessThanOrEqual(5);
    const rest = [...first, ...(await b!.drain(1000)), ...(await a!.drain(1000))];
    const total = [...during, ...rest].reduce((sum, aggregate) => sum + aggregate.count, 0);
    expect(total).toBe(200);
  });
});
