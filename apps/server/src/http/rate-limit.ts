import { tooManyRequests } from './errors';

/**
 * A fixed-window counter per key (an IP, an email). In memory: one process serves the portal.
 * `hit` counts an attempt and throws a 429 with Retry-After once the key has used its allowance. For limits that count
 * only failures (sign-in), `assertAllowed` checks without counting and `record` counts without throwing.
 */
export function createRateLimiter(options: { max: number; windowMs: number; message?: string }) {
  const windows = new Map<string, { count: number; resetAt: number }>();
  let lastSweep = Date.now();

  function sweep(now: number) {
    if (now - lastSweep < options.windowMs) return;
    lastSweep = now;
    for (const [key, window] of windows) if (window.resetAt <= now) windows.delete(key);
  }

  function current(key: string, now: number) {
    sweep(now);
    const window = windows.get(key);
    return window && window.resetAt > now ? window : null;
  }

  function refuse(window: { resetAt: number }, now: number): never {
    throw tooManyRequests(Math.max(1, Math.ceil((window.resetAt - now) / 1000)), options.message);
  }

  function record(key: string, now = Date.now()): { count: number; resetAt: number } {
    const window = current(key, now);
    if (!window) {
      const fresh = { count: 1, resetAt: now + options.windowMs };
      windows.set(key, fresh);
      return fresh;
    }
    window.count += 1;
    return window;
  }

  return {
    /** Counts an attempt; throws 429 when it is over the allowance. */
    hit(key: string, now = Date.now()): void {
      const window = record(key, now);
      if (window.count > options.max) refuse(window, now);
    },
    /** Throws 429 when the key has used its allowance; counts nothing. */
    assertAllowed(key: string, now = Date.now()): void {
      const window = current(key, now);
      if (window && window.count >= options.max) refuse(window, now);
    },
    /** Counts an attempt (a failure) without refusing it. */
    record(key: string, now = Date.now()): void {
      record(key, now);
    },
    reset(key: string): void {
      windows.delete(key);
    },
  };
}
export type RateLimiter = ReturnType<typeof createRateLimiter>;
