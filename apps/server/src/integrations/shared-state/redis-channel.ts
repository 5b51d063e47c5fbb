import type { Redis } from 'ioredis';

/** How long `publish` waits to see its own message come back through the channel before it resolves anyway. */
const ECHO_TIMEOUT_MS = 1000;

/**
 * One Redis pub/sub channel, received on a dedicated subscriber connection (a subscribed connection can run no other
 * command). `publish` runs this process's listeners at once, then resolves when its own message has come back through
 * the channel, by which time Redis has written it to every subscriber's connection (every process); each process reads
 * it on its next turn of the event loop.
 */
export function createRedisChannel(redis: Redis, channel: string) {
  // The subscription waits for Redis however long it is away (and ioredis resubscribes after a reconnection).
  const subscriber = redis.duplicate({ maxRetriesPerRequest: null });
  subscriber.on('error', () => {}); // the main connection logs the same trouble
  const listeners: ((message: string) => void)[] = [];
  const echoes = new Map<string, (() => void)[]>();
  const subscribed = subscriber.subscribe(channel).then(
    () => true,
    () => false,
  );
  subscriber.on('message', (from: string, message: string) => {
    if (from !== channel) return;
    for (const listener of listeners) listener(message);
    const waiting = echoes.get(message) ?? [];
    echoes.delete(message);
    for (const resolve of waiting) resolve();
  });
  return {
    async publish(message: string): Promise<void> {
      for (const listener of listeners) listener(message);
      // Not subscribed yet (Redis away at start): publish anyway, the echo's timeout bounds the wait.
      await Promise.race([subscribed, new Promise((resolve) => setTimeout(resolve, ECHO_TIMEOUT_MS).unref())]);
      const echoed = new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, ECHO_TIMEOUT_MS);
        timer.unref();
        echoes.set(message, [
          ...(echoes.get(message) ?? []),
          () => {
            clearTimeout(timer);
            resolve();
          },
        ]);
      });
      await redis.publish(channel, message);
      await echoed;
    },
    subscribe(listener: (message: string) => void): void {
      listeners.push(listener);
    },
    async close(): Promise<void> {
      listeners.length = 0;
      for (const waiting of echoes.values()) for (const resolve of waiting) resolve();
      echoes.clear();
      subscriber.disconnect();
    },
  };
}
export type RedisChannel = ReturnType<typeof createRedisChannel>;
