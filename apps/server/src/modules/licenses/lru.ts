/**
 * A bounded least-recently-used map (ADR 031, "Performance"): a hit moves the entry to the back of the Map's insertion
 * order, an insertion over `maxEntries` drops the front (the least recently used). Per process, in memory.
 */
export function createLru<K, V>(maxEntries: number) {
  const entries = new Map<K, V>();
  return {
    get(key: K): V | undefined {
      const value = entries.get(key);
      if (value !== undefined) {
        entries.delete(key);
        entries.set(key, value);
      }
      return value;
    },
    set(key: K, value: V): void {
      entries.delete(key);
      if (entries.size >= maxEntries) {
        const oldest = entries.keys().next();
        if (!oldest.done) entries.delete(oldest.value);
      }
      entries.set(key, value);
    },
    get size() {
      return entries.size;
    },
  };
}
