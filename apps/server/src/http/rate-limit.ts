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

  function refusal(window: { resetAt: number }) {
    return tooManyRequests(Math.max(1, Math.ceil((window.resetAt - Date.now()) / 1000)), options.message);
  }
  function refuse(window: { resetAt: number }): never {
    throw refusal(window);
  }

  return {
    /**
     * Counts an attempt; refuses it with a 429 when it is over the allowance. ADR 047: a count the counter answers at
     * once is decided at once (no promise, no microtask turn: the validation's hot path); callers `await` it either way.
     */
    hit(key: string): Promise<void> | undefined {
      const counted = counter.incr(keyOf(key), options.windowMs);
      if (counted instanceof Promise) {
        return counted.then((window) => {
          if (window.count > options.max) refuse(window);
        });
      }
      if (counted.count > options.max) return Promise.reject(refusal(counted));
      return undefined;
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
