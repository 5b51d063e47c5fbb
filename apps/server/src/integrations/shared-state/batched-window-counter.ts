import type { WindowCounter } from './port';

/** How often a process adds the hits it counted locally to the shared windows. */
export const WINDOW_SYNC_MS = 250;

interface LocalWindow {
  /** The shared count as of this process's last exchange with the shared counter. */
  known: number;
  /** Hits counted here since then. */
  pending: number;
  resetAt: number;
  windowMs: number;
}

/**
 * A fixed-window counter for a hot, generous limit (the license validation's per-IP limit, ADR 031 "Performance"),
 * in front of the shared one (Redis). A key's first hit in a window goes to the shared counter and learns its count
 * and reset time; later hits are counted here and answered at once (shared count + local hits), and every `syncEveryMs`
 * the local hits are added to the shared window, which answers the count of every process. So a request costs no
 * round trip, and the limit holds across processes to within what each can count between two syncs (with N processes,
 * at most N × `syncEveryMs` of one client's requests beyond it). A limit that must hold exactly (sign-in, sign-up)
 * uses the shared counter directly. Past `maxKeys` keys in this process a new key is counted in the shared counter
 * directly, so memory stays bounded.
 */
export function createBatchedWindowCounter(
  shared: WindowCounter,
  options: { syncEveryMs?: number; maxKeys?: number; now?: () => number } = {},
): WindowCounter & { sync(): Promise<void>; close(): Promise<void> } {
  const maxKeys = options.maxKeys ?? 100_000;
  const now = options.now ?? Date.now;
  const windows = new Map<string, LocalWindow>();

  async function sync(): Promise<void> {
    const at = now();
    const sends: Promise<void>[] = [];
    for (const [key, window] of windows) {
      if (window.pending === 0) {
        if (window.resetAt <= at) windows.delete(key);
        continue;
      }
      const by = window.pending;
      window.pending = 0;
      sends.push(
        Promise.resolve(shared.incr(key, window.windowMs, by)).then(
          (after) => {
            window.known = after.count;
            window.resetAt = after.resetAt;
          },
          () => {
            window.pending += by; // sent with the next sync
          },
        ),
      );
    }
    await Promise.all(sends);
  }

  /** A new window (or a key this process has not seen): the shared counter counts the hit and tells the window. */
  async function countShared(key: string, windowMs: number, by: number): Promise<{ count: number; resetAt: number }> {
    const after = await shared.incr(key, windowMs, by);
    if (windows.has(key) || windows.size < maxKeys) {
      // Hits counted here meanwhile for this window (by concurrent requests) stay; those of a past window go.
      const current = windows.get(key);
      const pending = current && current.resetAt > now() ? current.pending : 0;
      windows.set(key, { known: after.count, pending, resetAt: after.resetAt, windowMs });
    }
    return after;
  }

  const timer = setInterval(() => void sync(), options.syncEveryMs ?? WINDOW_SYNC_MS);
  timer.unref();

  return {
    incr(key, windowMs, by = 1) {
      const window = windows.get(key);
      if (window && window.resetAt > now()) {
        // ADR 047: answered at once, without a promise (the validation's every request but a window's first).
        window.pending += by;
        return { count: window.known + window.pending, resetAt: window.resetAt };
      }
      return countShared(key, windowMs, by);
    },
    async peek(key) {
      const [after, window] = [await shared.peek(key), windows.get(key)];
      if (!after) return null;
      return { count: after.count + (window?.pending ?? 0), resetAt: after.resetAt };
    },
    async reset(key) {
      windows.delete(key);
      await shared.reset(key);
    },
    sync,
    async close() {
      clearInterval(timer);
      await sync();
    },
  };
}
