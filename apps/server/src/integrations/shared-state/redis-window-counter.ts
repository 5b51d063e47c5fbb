import type { Redis } from 'ioredis';
import type { WindowCounter } from './port';

/**
 * INCRBY and, on a window's first hit, PEXPIRE in one Lua script: atomic, so every process counts into the same window
 * and no key is ever left without an expiry. Answers the count and the milliseconds left (PTTL).
 */
const INCR_WINDOW = `
local count = redis.call('INCRBY', KEYS[1], ARGV[1])
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
  ttl = tonumber(ARGV[2])
end
return {count, ttl}
`;

type WindowRedis = Redis & {
  keyportIncrWindow(key: string, by: number, windowMs: number): Promise<[number, number]>;
};

/** Fixed windows in Redis, shared by every process (keys `<prefix>rl:<key>`). */
export function createRedisWindowCounter(redis: Redis, prefix: string): WindowCounter {
  if (!('keyportIncrWindow' in redis)) redis.defineCommand('keyportIncrWindow', { numberOfKeys: 1, lua: INCR_WINDOW });
  const client = redis as WindowRedis;
  const keyOf = (key: string) => `${prefix}rl:${key}`;
  return {
    async incr(key, windowMs, by = 1) {
      const [count, ttl] = await client.keyportIncrWindow(keyOf(key), by, windowMs);
      return { count, resetAt: Date.now() + ttl };
    },
    async peek(key) {
      const results = await client.multi().get(keyOf(key)).pttl(keyOf(key)).exec();
      const count = results?.[0]?.[1];
      const ttl = results?.[1]?.[1];
      if (typeof count !== 'string' || typeof ttl !== 'number' || ttl < 0) return null;
      return { count: Number(count), resetAt: Date.now() + ttl };
    },
    async reset(key) {
      await client.del(keyOf(key));
    },
  };
}
