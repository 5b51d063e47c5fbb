import { tooManyRequests } from './errors';

/**
 * A fixed-window counter per key (an IP, an email). In memory: one process serves the portal.
 * `hit` throws a 429 with Retry-After once a key has used its allowance.
 */
export function createRateLimiter(options: { max: number; windowMs: number; message?: string }) {
  const windows = new Map<string, { count: number; resetAt: number }>();
  let lastSweep = Date.now();

  function sweep(now: number) {
    if (now - lastSweep < options.windowMs) return;
    lastSweep = now;
    for (const [key, window] of windows) if (window.resetAt <= now) windows.delete(key);
  }

  return {
    hit(key: string, now = Date.now()): void {
      sweep(now);
      const current = windows.get(key);
      if (!current || current.resetAt <= now) {
        windows.set(key, { count: 1, resetAt: now + options.windowMs });
        return;
      }
      current.count += 1;
      if (current.count > options.max) {
        throw tooManyRequests(Math.max(1, Math.ceil((current.resetAt - now) / 1000)), options.message);
      }
    },
    reset(key: string): void {
      windows.delete(key);
    },
  };
}
export type RateLimiter = ReturnType<typeof createRateLimiter>;
