import { describe, expect, it } from 'vitest';
import type { KeyState } from '../keys/keys.service';
import { createKeyStateCache } from './key-state-cache';

const state = (id: number, tokenVersion = 1): KeyState => ({ id, ownerId: 7, tier: 'PRO', tokenVersion });

function harness(ttlMs = 30_000) {
  let clock = 0;
  const loads: number[][] = [];
  let version = 1;
  const cache = createKeyStateCache({
    ttlMs,
    now: () => clock,
    load: async (ids) => {
      loads.push(ids);
      return ids.filter((id) => id !== 404).map((id) => state(id, version));
    },
  });
  return {
    cache,
    loads,
    advance: (ms: number) => (clock += ms),
    setVersion: (v: number) => (version = v),
  };
}

describe('key-state cache', () => {
  it('loads a key once while fresh, again after the TTL', async () => {
    const h = harness();
    expect(await h.cache.get(1)).toEqual(state(1));
    expect(await h.cache.get(1)).toEqual(state(1));
    expect(h.loads).toEqual([[1]]);
    h.advance(30_001);
    h.setVersion(2);
    expect(await h.cache.get(1)).toEqual(state(1, 2));
    expect(h.loads).toHaveLength(2);
  });

  it('caches a missing key as null, and shares one load between concurrent misses', async () => {
    const h = harness();
    const [a, b] = await Promise.all([h.cache.get(404), h.cache.get(404)]);
    expect([a, b]).toEqual([null, null]);
    expect(await h.cache.get(404)).toBeNull();
    expect(h.loads).toEqual([[404]]);
  });

  it('an invalidation is seen at once, and a load that raced it is not stored', async () => {
    const h = harness();
    await h.cache.get(1);
    h.setVersion(2);
    h.cache.invalidate(1);
    expect(await h.cache.get(1)).toEqual(state(1, 2));

    h.setVersion(3);
    const racing = h.cache.get(1 + 1);
    h.cache.invalidate(2);
    await racing;
    await h.cache.get(2);
    expect(h.loads.filter((ids) => ids[0] === 2)).toHaveLength(2);
  });
});
