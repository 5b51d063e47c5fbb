import type { AggregatedCheckin, Checkin, CheckinBuffer } from './port';

/** The aggregate a check-in counts towards: one row of `license_checkins`. */
export function checkinAggregateKey(checkin: Omit<Checkin, 'at'>): string {
  return JSON.stringify([checkin.keyId, checkin.domain, checkin.version, checkin.edition, checkin.covered]);
}

/**
 * The check-in buffer of one process (no REDIS_URL): a map of aggregates, so a million validations of one store hold
 * one entry. `drain` takes entries out synchronously: two flushes never take the same one. Bounded: past `maxEntries`
 * distinct aggregates a new one is dropped (counted in `dropped`) until the next drain, so a flood of invented domains
 * cannot grow the heap without limit.
 */
export function createMemoryCheckinBuffer(options: { maxEntries?: number } = {}): CheckinBuffer & {
  readonly size: number;
  readonly dropped: number;
} {
  const maxEntries = options.maxEntries ?? 100_000;
  const entries = new Map<string, AggregatedCheckin>();
  let dropped = 0;
  return {
    add(checkin) {
      const key = checkinAggregateKey(checkin);
      const entry = entries.get(key);
      if (entry) {
        entry.count += 1;
        if (checkin.at < entry.firstAt) entry.firstAt = checkin.at;
        if (checkin.at > entry.lastAt) entry.lastAt = checkin.at;
      } else if (entries.size < maxEntries) {
        const { at, ...aggregate } = checkin;
        entries.set(key, { ...aggregate, count: 1, firstAt: at, lastAt: at });
      } else {
        dropped += 1;
      }
      return Promise.resolve();
    },
    drain(max) {
      const taken: AggregatedCheckin[] = [];
      for (const [key, entry] of entries) {
        if (taken.length >= max) break;
        entries.delete(key);
        taken.push(entry);
      }
      return Promise.resolve(taken);
    },
    get size() {
      return entries.size;
    },
    get dropped() {
      return dropped;
    },
  };
}
