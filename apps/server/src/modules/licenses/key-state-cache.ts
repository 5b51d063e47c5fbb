import type { KeyState } from '../keys/keys.service';

/**
 * The validation API's per-process cache of key state (ADR 031): what a token's validity depends on (owner, tier,
 * current token version), loaded through the keys service and kept `ttlMs`. A validation of a cached key issues no
 * query. This process forgets a key the moment its keys service changes it (`invalidate`, wired in services.ts);
 * other processes forget it when the change is announced through Redis (ADR 032), or at the latest when their entry expires. Concurrent misses of one key share
 * one load; a key that does not exist is cached too (as null), so a flood of tokens naming it costs one query per TTL.
 */
export function createKeyStateCache(options: {
  load: (keyIds: number[]) => Promise<KeyState[]>;
  ttlMs: number;
  maxEntries?: number;
  now?: () => number;
}) {
  const { load, ttlMs, maxEntries = 100_000, now = Date.now } = options;
  const entries = new Map<number, { state: KeyState | null; expiresAt: number }>();
  const loading = new Map<number, Promise<KeyState | null>>();
  /** Bumped by every invalidation of a key, so a load that started before it does not store stale state. */
  const generations = new Map<number, number>();

  async function fetch(keyId: number): Promise<KeyState | null> {
    const generation = generations.get(keyId) ?? 0;
    const [state] = await load([keyId]);
    if ((generations.get(keyId) ?? 0) === generation) {
      if (entries.size >= maxEntries) {
        // The oldest insertion goes first (a Map iterates in insertion order).
        const oldest = entries.keys().next();
        if (!oldest.done) entries.delete(oldest.value);
      }
      entries.set(keyId, { state: state ?? null, expiresAt: now() + ttlMs });
    }
    return state ?? null;
  }

  return {
    /** The key's state (null when there is no such key): from the cache while fresh, else one query. */
    get(keyId: number): Promise<KeyState | null> | KeyState | null {
      const entry = entries.get(keyId);
      if (entry && entry.expiresAt > now()) return entry.state;
      if (entry) entries.delete(keyId);
      let pending = loading.get(keyId);
      if (!pending) {
        pending = fetch(keyId).finally(() => loading.delete(keyId));
        loading.set(keyId, pending);
      }
      return pending;
    },
    /** Forgets the key in this process (its owner, tier or token version just changed here). */
    invalidate(keyId: number): void {
      entries.delete(keyId);
      loading.delete(keyId);
      generations.set(keyId, (generations.get(keyId) ?? 0) + 1);
    },
    get size() {
      return entries.size;
    },
  };
}
export type KeyStateCache = ReturnType<typeof createKeyStateCache>;
