import type { FastifyBaseLogger } from 'fastify';
import { Redis } from 'ioredis';
import type { Config } from '../../config';
import { createMemoryKeyStateChanges, createMemoryRevocations } from './memory-revocations';
import { createMemoryWindowCounter } from './memory-window-counter';
import type { CheckinBuffer, KeyStateChanges, SessionRevocations, WindowCounter } from './port';
import { createBatchedWindowCounter } from './batched-window-counter';
import { createRedisCheckinBuffer } from './redis-checkins';
import { createRedisKeyStateChanges, createRedisRevocations } from './redis-revocations';
import { createRedisWindowCounter } from './redis-window-counter';

export interface SharedState {
  kind: Config['sharedState']['kind'];
  /** Before every Redis key and channel ('' in memory mode). */
  keyPrefix: string;
  windows: WindowCounter;
  /**
   * For hot, generous limits only (the license validation's): counts locally and adds to `windows` in batches, so
   * the limit holds across processes to within a sync interval (batched-window-counter.ts). `windows` itself in
   * memory mode.
   */
  batchedWindows: WindowCounter;
  revocations: SessionRevocations;
  keyStateChanges: KeyStateChanges;
  /** The Redis check-in buffer; null in memory mode, where the licenses module keeps its own in-process buffer. */
  checkins: CheckinBuffer | null;
  /** The Redis connection (for @fastify/rate-limit's store), or null in memory mode. */
  redis: Redis | null;
  close(): Promise<void>;
}

/** The shared-state adapters config selects: Redis when REDIS_URL is set, else this process's memory. */
export function createSharedState(config: Config['sharedState'], log: FastifyBaseLogger): SharedState {
  if (config.kind === 'memory') {
    const revocations = createMemoryRevocations();
    const keyStateChanges = createMemoryKeyStateChanges();
    const windows = createMemoryWindowCounter();
    return {
      kind: 'memory',
      keyPrefix: '',
      windows,
      batchedWindows: windows,
      revocations,
      keyStateChanges,
      checkins: null,
      redis: null,
      async close() {
        await Promise.all([revocations.close(), keyStateChanges.close()]);
      },
    };
  }
  // Commands wait (queued) while Redis reconnects, but only for a few retries: a request fails rather than hangs.
  const redis = new Redis(config.url, { maxRetriesPerRequest: 3, enableAutoPipelining: true });
  // Connection trouble is logged (ioredis reconnects by itself); the error names the host, never the URL's password.
  redis.on('error', (error: Error) => log.warn({ err: error }, 'redis connection error'));
  const revocations = createRedisRevocations(redis, config.keyPrefix);
  const keyStateChanges = createRedisKeyStateChanges(redis, config.keyPrefix);
  const checkins = createRedisCheckinBuffer(redis, config.keyPrefix);
  const windows = createRedisWindowCounter(redis, config.keyPrefix);
  const batchedWindows = createBatchedWindowCounter(windows);
  return {
    kind: 'redis',
    keyPrefix: config.keyPrefix,
    windows,
    batchedWindows,
    revocations,
    keyStateChanges,
    checkins,
    redis,
    async close() {
      // What this process counted since its last push goes to Redis, for whichever process flushes next.
      await batchedWindows.close();
      await checkins.close().catch((error: unknown) => log.warn({ err: error }, 'check-in counts not pushed to Redis'));
      await Promise.all([revocations.close(), keyStateChanges.close()]);
      await redis.quit().catch(() => redis.disconnect());
    },
  };
}
