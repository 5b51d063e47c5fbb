import type { WindowCounter } from '../integrations/shared-state/port';
import { tooManyRequests } from './errors';

/**
 * A fixed-window limit per key (an IP, an email) over a `WindowCounter`: in this process's memory, or in Redis when
 * several processes serve the portal (then every process counts into the same window).
 * `hit` counts an attempt and throws a 429 with Retry-After once the key has used its allowance. For limits that count
 * only failures (sign-in), `assertAllowed` checks without counting and `record` counts without throwing.
 */
export function createRateLimiter(
  counter: WindowCounter,
  options: { name: string; max: number; windowMs: number; message?: string },
) {
  const keyOf = (key: string) => `${options.name}:${key}`;

  function refuse(window: { resetAt: number }): never {
    throw tooManyRequests(Math.max(1, Math.ceil((window.resetAt - Date.now()) / 1000)), options.message);
  }

  return {
    /** Counts an attempt; throws 429 when it is over the allowance. */
    async hit(key: string): Promise<void> {
      const window = await counter.incr(keyOf(key), options.windowMs);
      if (window.count > options.max) refuse(window);
    },
    /** Throws 429 when the key has used its allowance; counts nothing. */
    async assertAllowed(key: string): Promise<void> {
      const window = await counter.peek(keyOf(key));
      if (window && window.count >= options.max) refuse(window);
    },
    /** Counts an attempt (a failure) without refusing it. */
    async record(key: string): Promise<void> {
      await counter.incr(keyOf(key), options.windowMs);
    },
    async reset(key: string): Promise<void> {
      await counter.reset(keyOf(key));
    },
  };
}
export type RateLimiter = ReturnType<typeof createRateLimiter>;
