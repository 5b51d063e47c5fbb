import type { WindowCounter } from './port';

/** Fixed windows in this process's memory (one process serves the portal). Expired windows are swept once a minute. */
export function createMemoryWindowCounter(clock: () => number = Date.now): WindowCounter {
  const windows = new Map<string, { count: number; resetAt: number }>();
  let lastSweep = clock();

  function current(key: string, now: number) {
    if (now - lastSweep >= 60_000) {
      lastSweep = now;
      for (const [k, window] of windows) if (window.resetAt <= now) windows.delete(k);
    }
    const window = windows.get(key);
    return window && window.resetAt > now ? window : null;
  }

  return {
    async incr(key, windowMs, by = 1) {
      const now = clock();
      const window = current(key, now);
      if (!window) {
        const fresh = { count: by, resetAt: now + windowMs };
        windows.set(key, fresh);
        return { ...fresh };
      }
      window.count += by;
      return { ...window };
    },
    async peek(key) {
      const window = current(key, clock());
      return window ? { ...window } : null;
    },
    async reset(key) {
      windows.delete(key);
    },
  };
}
