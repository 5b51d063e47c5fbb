/**
 * A bounded cache that keeps what is used and drops what is not (ADR 031, "Performance"), in two generations: entries
 * go into the current one; when it holds half of `maxEntries`, it becomes the old one and the previous old one is
 * dropped. A hit in the current generation costs one Map lookup (an exact LRU reorders the Map on every hit, which
 * cost more than the lookup on the validation route); a hit in the old one moves the entry to the current one. So an
 * entry used at least once per generation is never dropped, at most `maxEntries` are held, and the entries dropped
 * are the least recently used half. Per process, in memory.
 */
export function createLru<K, V>(maxEntries: number) {
  const generationSize = Math.max(1, Math.ceil(maxEntries / 2));
  let current = new Map<K, V>();
  let old = new Map<K, V>();

  function set(key: K, value: V): void {
    if (!current.has(key) && current.size >= generationSize) {
      old = current;
      current = new Map();
    }
    current.set(key, value);
    old.delete(key);
  }

  return {
    get(key: K): V | undefined {
      const value = current.get(key);
      if (value !== undefined) return value;
      const kept = old.get(key);
      if (kept !== undefined) set(key, kept);
      return kept;
    },
    set,
    /** The two generations never share a key (`set` takes it out of the old one). */
    get size() {
      return current.size + old.size;
    },
  };
}
