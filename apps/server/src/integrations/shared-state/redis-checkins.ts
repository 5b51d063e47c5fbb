import type { Redis } from 'ioredis';
import { TIERS, type Tier } from '@keyport/shared/domain/tiers';
import { createMemoryCheckinBuffer } from './memory-checkins';
import type { AggregatedCheckin, CheckinBuffer, Checkin } from './port';

/**
 * Adds a process's aggregate (ARGV: id, count, first, last in epoch ms) to the shared one: the id joins the set of
 * pending ids, the hash adds the count and keeps the earliest first and latest last time (min/max need a compare,
 * hence a script: atomic, and one round trip for a whole pipeline of them).
 */
const MERGE_CHECKIN = `
redis.call('SADD', KEYS[1], ARGV[1])
redis.call('HINCRBY', KEYS[2], 'count', ARGV[2])
local first = redis.call('HGET', KEYS[2], 'first')
if not first or tonumber(first) > tonumber(ARGV[3]) then redis.call('HSET', KEYS[2], 'first', ARGV[3]) end
local last = redis.call('HGET', KEYS[2], 'last')
if not last or tonumber(last) < tonumber(ARGV[4]) then redis.call('HSET', KEYS[2], 'last', ARGV[4]) end
`;

/**
 * Takes up to ARGV[2] pending aggregates and deletes them in the same script: whatever another process drains next
 * can only be check-ins added after this one. A check-in added later recreates its aggregate from zero.
 */
const DRAIN_CHECKINS = `
local ids = redis.call('SPOP', KEYS[1], ARGV[2])
local out = {}
for _, id in ipairs(ids) do
  local key = ARGV[1] .. id
  local values = redis.call('HMGET', key, 'count', 'first', 'last')
  redis.call('DEL', key)
  if values[1] then
    table.insert(out, id)
    table.insert(out, values[1])
    table.insert(out, values[2])
    table.insert(out, values[3])
  end
end
return out
`;

type CheckinRedis = Redis & {
  keyportMergeCheckin(
    idsKey: string,
    aggregateKey: string,
    id: string,
    count: number,
    firstMs: number,
    lastMs: number,
  ): Promise<unknown>;
  keyportDrainCheckins(idsKey: string, aggregatePrefix: string, max: number): Promise<string[]>;
};

type AggregateId = [keyId: number, domain: string, version: string, edition: Tier, covered: boolean];

function aggregateId(checkin: Omit<Checkin, 'at'>): string {
  const id: AggregateId = [checkin.keyId, checkin.domain, checkin.version, checkin.edition, checkin.covered];
  return JSON.stringify(id);
}

function parseAggregateId(id: string): AggregateId | null {
  const value: unknown = JSON.parse(id);
  if (!Array.isArray(value) || value.length !== 5) return null;
  const [keyId, domain, version, edition, covered] = value as unknown[];
  if (typeof keyId !== 'number' || typeof domain !== 'string' || typeof version !== 'string') return null;
  if (!TIERS.includes(edition as Tier) || typeof covered !== 'boolean') return null;
  return [keyId, domain, version, edition as Tier, covered];
}

/** How often a process adds what it counted to the shared aggregates in Redis. */
export const CHECKIN_PUSH_MS = 1000;

/**
 * Check-in counts in Redis, shared by every process: a set of pending aggregate ids (`<prefix>checkins:ids`) and one
 * hash per aggregate (`<prefix>checkins:agg:<id>`, fields count, first, last in epoch ms). A single Redis (or a
 * primary), not Redis Cluster: the scripts name the aggregate keys themselves.
 *
 * A validation costs no Redis round trip (ADR 031 "Performance"): `add` counts into this process's own aggregates (a
 * bounded map, as without Redis), and every `pushEveryMs` they are added to Redis in one pipeline. `drain` pushes
 * first, so whatever any process drains includes what this one counted until then. A push that fails keeps its
 * counts here for the next one; a process that dies loses at most its last second of counts.
 */
export function createRedisCheckinBuffer(
  redis: Redis,
  prefix: string,
  options: { pushEveryMs?: number; maxEntries?: number } = {},
): CheckinBuffer & { close(): Promise<void> } {
  if (!('keyportMergeCheckin' in redis)) {
    redis.defineCommand('keyportMergeCheckin', { numberOfKeys: 2, lua: MERGE_CHECKIN });
    redis.defineCommand('keyportDrainCheckins', { numberOfKeys: 1, lua: DRAIN_CHECKINS });
  }
  const client = redis as CheckinRedis;
  const idsKey = `${prefix}checkins:ids`;
  const aggregatePrefix = `${prefix}checkins:agg:`;
  const local = createMemoryCheckinBuffer({ maxEntries: options.maxEntries });
  let pushing: Promise<void> | null = null;

  async function pushOnce(): Promise<void> {
    const aggregates = await local.drain(Number.MAX_SAFE_INTEGER);
    if (aggregates.length === 0) return;
    const pipeline = client.pipeline() as ReturnType<Redis['pipeline']> & {
      keyportMergeCheckin: (...args: Parameters<CheckinRedis['keyportMergeCheckin']>) => unknown;
    };
    for (const aggregate of aggregates) {
      const id = aggregateId(aggregate);
      pipeline.keyportMergeCheckin(
        idsKey,
        aggregatePrefix + id,
        id,
        aggregate.count,
        aggregate.firstAt.getTime(),
        aggregate.lastAt.getTime(),
      );
    }
    const results = (await pipeline.exec().catch(() => null)) ?? aggregates.map(() => [new Error('not sent')]);
    // What Redis did not take stays here for the next push.
    aggregates.forEach((aggregate, i) => {
      if (results[i]?.[0]) local.merge(aggregate);
    });
    if (results.some((result) => result[0])) throw new Error('some check-in counts could not be added to Redis');
  }

  /** Adds this process's counts to Redis (one push at a time: a second call waits for the running one, then runs). */
  async function push(): Promise<void> {
    while (pushing) await pushing.catch(() => {});
    pushing = pushOnce();
    try {
      await pushing;
    } finally {
      pushing = null;
    }
  }

  const timer = setInterval(() => {
    push().catch(() => {}); // kept for the next push; the flusher reports Redis trouble when it drains
  }, options.pushEveryMs ?? CHECKIN_PUSH_MS);
  timer.unref();

  return {
    add: local.add,
    async drain(max) {
      if (max <= 0) return [];
      await push();
      const flat = await client.keyportDrainCheckins(idsKey, aggregatePrefix, max);
      const drained: AggregatedCheckin[] = [];
      for (let i = 0; i + 3 < flat.length; i += 4) {
        const id = parseAggregateId(flat[i]!);
        if (!id) continue;
        const [keyId, domain, version, edition, covered] = id;
        drained.push({
          keyId,
          domain,
          version,
          edition,
          covered,
          count: Number(flat[i + 1]),
          firstAt: new Date(Number(flat[i + 2])),
          lastAt: new Date(Number(flat[i + 3])),
        });
      }
      return drained;
    },
    async close() {
      clearInterval(timer);
      await push();
    },
  };
}
