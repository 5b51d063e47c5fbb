import type { Redis } from 'ioredis';
import { TIERS, type Tier } from '@keyport/shared/domain/tiers';
import type { AggregatedCheckin, CheckinBuffer, Checkin } from './port';

/**
 * Adds one check-in to its aggregate: the aggregate's id joins the set of pending ids, its hash counts it and keeps
 * the earliest and latest time (min/max need a compare, hence a script: one round trip, atomic).
 */
const ADD_CHECKIN = `
redis.call('SADD', KEYS[1], ARGV[1])
redis.call('HINCRBY', KEYS[2], 'count', 1)
local first = redis.call('HGET', KEYS[2], 'first')
if not first or tonumber(first) > tonumber(ARGV[2]) then redis.call('HSET', KEYS[2], 'first', ARGV[2]) end
local last = redis.call('HGET', KEYS[2], 'last')
if not last or tonumber(last) < tonumber(ARGV[2]) then redis.call('HSET', KEYS[2], 'last', ARGV[2]) end
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
  keyportAddCheckin(idsKey: string, aggregateKey: string, id: string, atMs: number): Promise<unknown>;
  keyportDrainCheckins(idsKey: string, aggregatePrefix: string, max: number): Promise<string[]>;
};

type AggregateId = [keyId: number, domain: string, version: string, edition: Tier, covered: boolean];

function aggregateId(checkin: Checkin): string {
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

/**
 * Check-in counts in Redis, shared by every process: a set of pending aggregate ids (`<prefix>checkins:ids`) and one
 * hash per aggregate (`<prefix>checkins:agg:<id>`, fields count, first, last in epoch ms). A single Redis (or a
 * primary), not Redis Cluster: the scripts name the aggregate keys themselves.
 */
export function createRedisCheckinBuffer(redis: Redis, prefix: string): CheckinBuffer {
  if (!('keyportAddCheckin' in redis)) {
    redis.defineCommand('keyportAddCheckin', { numberOfKeys: 2, lua: ADD_CHECKIN });
    redis.defineCommand('keyportDrainCheckins', { numberOfKeys: 1, lua: DRAIN_CHECKINS });
  }
  const client = redis as CheckinRedis;
  const idsKey = `${prefix}checkins:ids`;
  const aggregatePrefix = `${prefix}checkins:agg:`;
  return {
    async add(checkin) {
      const id = aggregateId(checkin);
      await client.keyportAddCheckin(idsKey, aggregatePrefix + id, id, checkin.at.getTime());
    },
    async drain(max) {
      if (max <= 0) return [];
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
  };
}
