/**
 * The shared-state adapters (ADR 032): the memory ones always, the Redis ones when TEST_REDIS_URL names a Redis
 * (every key under a prefix unique to this run, removed afterwards). The same contract tests run on both.
 */
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { AppError } from '../src/http/errors';
import { createRateLimiter } from '../src/http/rate-limit';
import { createBatchedWindowCounter } from '../src/integrations/shared-state/batched-window-counter';
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

/** The error a limiter's answer is refused with (`hit` answers a counted hit without a promise: ADR 047). */
async function refusal(promise: Promise<unknown> | undefined): Promise<AppError> {
  const error = await Promise.resolve(promise).then(
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
windowCounterContract('batched (over memory)', () => batched(createMemoryWindowCounter()));

/** Batched counters made by a test sync when it says so (and are closed after the file). */
const batchedCounters: ReturnType<typeof createBatchedWindowCounter>[] = [];
function batched(shared: WindowCounter, options: { maxKeys?: number } = {}) {
  const counter = createBatchedWindowCounter(shared, { syncEveryMs: 3_600_000, ...options });
  batchedCounters.push(counter);
  return counter;
}
afterAll(async () => {
  await Promise.all(batchedCounters.map((counter) => counter.close().catch(() => {})));
});

/** A shared counter that counts its own calls (and can be made to fail). */
function observed(shared: WindowCounter) {
  const calls: { key: string; by: number }[] = [];
  let failing = false;
  const counter: WindowCounter = {
    incr: (key, windowMs, by = 1) => {
      calls.push({ key, by });
      return failing ? Promise.reject(new Error('Redis is away')) : shared.incr(key, windowMs, by);
    },
    peek: (key) => shared.peek(key),
    reset: (key) => shared.reset(key),
  };
  return { counter, calls, fail: (value: boolean) => (failing = value) };
}

describe('batched window counter (the validation limit, ADR 031)', () => {
  it("asks the shared counter once per key and window, then adds this process's hits at each sync", async () => {
    const shared = createMemoryWindowCounter();
    const { counter, calls } = observed(shared);
    const local = batched(counter);
    expect((await local.incr('ip', 60_000)).count).toBe(1);
    for (let i = 2; i <= 50; i += 1) expect((await local.incr('ip', 60_000)).count).toBe(i);
    expect(calls).toEqual([{ key: 'ip', by: 1 }]);
    expect((await shared.peek('ip'))?.count).toBe(1);
    await local.sync();
    expect(calls).toEqual([
      { key: 'ip', by: 1 },
      { key: 'ip', by: 49 },
    ]);
    expect((await shared.peek('ip'))?.count).toBe(50);
    await local.sync(); // nothing new: no call
    expect(calls).toHaveLength(2);
  });

  it('holds a limit across two processes to within what each counts between two of its syncs', async () => {
    const shared = createMemoryWindowCounter();
    const [a, b] = [batched(shared), batched(shared)];
    const [limitA, limitB] = [a, b].map((counter) =>
      createRateLimiter(counter, { name: 'v', max: 10, windowMs: 60_000 }),
    );
    for (let i = 0; i < 10; i += 1) await limitA!.hit('ip');
    expect((await refusal(limitA!.hit('ip'))).statusCode).toBe(429); // refused here, without Redis
    // B has not heard of A's last nine hits yet: its hits pass until its next sync tells it the shared count.
    await limitB!.hit('ip');
    await Promise.all([a.sync(), b.sync()]);
    await limitB!.hit('ip');
    await Promise.all([a.sync(), b.sync()]);
    expect((await refusal(limitB!.hit('ip'))).statusCode).toBe(429);
    expect((await refusal(limitA!.hit('ip'))).statusCode).toBe(429);
    // Synced so far: A's 10 and its first refusal (a refused hit counts too), B's 2.
    expect((await shared.peek('v:ip'))?.count).toBe(13);
  });

  it('keeps the hits of a failed sync for the next one', async () => {
    const shared = createMemoryWindowCounter();
    const { counter, fail } = observed(shared);
    const local = batched(counter);
    await local.incr('ip', 60_000);
    await local.incr('ip', 60_000);
    fail(true);
    await local.sync();
    expect((await shared.peek('ip'))?.count).toBe(1);
    fail(false);
    await local.sync();
    expect((await shared.peek('ip'))?.count).toBe(2);
  });

  it('counts a new key in the shared counter directly once it tracks maxKeys keys', async () => {
    const shared = createMemoryWindowCounter();
    const { counter, calls } = observed(shared);
    const local = batched(counter, { maxKeys: 2 });
    for (const key of ['a', 'b', 'c', 'c', 'c', 'a']) await local.incr(key, 60_000);
    expect(calls.map((call) => call.key)).toEqual(['a', 'b', 'c', 'c', 'c']);
    expect((await local.peek('c'))?.count).toBe(3);
  });
});

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
  windowCounterContract('batched (over Redis)', () =>
    batched(createRedisWindowCounter(redisClient(), `${prefix}${(run += 1)}:`)),
  );

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
    const adds: (void | Promise<void>)[] = [];
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

  it("adds a process's counts to Redis on its timer: another connection drains them without this one draining", async () => {
    const counting = createRedisCheckinBuffer(redisClient(), `${prefix}push:`, { pushEveryMs: 20 });
    const draining = createRedisCheckinBuffer(redisClient(), `${prefix}push:`, { pushEveryMs: 3_600_000 });
    for (let i = 0; i < 3; i += 1) await counting.add(checkin());
    await vi.waitFor(async () => expect(await draining.drain(10)).toMatchObject([{ count: 3 }]), { timeout: 2000 });
    await Promise.all([counting.close(), draining.close()]);
  });

  it('keeps the counts of a push Redis refused for the next one', async () => {
    const client = redisClient();
    const buffer = createRedisCheckinBuffer(client, `${prefix}refused:`, { pushEveryMs: 3_600_000 });
    await buffer.add(checkin());
    await buffer.add(checkin());
    client.disconnect();
    await expect(buffer.drain(10)).rejects.toThrow();
    await client.connect();
    expect(await buffer.drain(10)).toMatchObject([{ count: 2 }]);
    await buffer.close();
  });
});
