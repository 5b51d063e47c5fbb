import type { AggregatedCheckin, Checkin, CheckinBuffer } from './port';

/** The aggregate a check-in counts towards: one row of `license_checkins`. */
export function checkinAggregateKey(checkin: Omit<Checkin, 'at'>): string {
  // A map key only (never parsed): the fields joined by a character no domain, version or edition holds.
  return `${checkin.keyId}\u0000${checkin.domain}\u0000${checkin.version}\u0000${checkin.edition}\u0000${checkin.covered}`;
}

/**
 * The check-in buffer of one process (no REDIS_URL): a map of aggregates, so a million validations of one store hold
 * one entry. `drain` takes entries out synchronously: two flushes never take the same one. Bounded: past `maxEntries`
 * distinct aggregates a new one is dropped (counted in `dropped`) until the next drain, so a flood of invented domains
 * cannot grow the heap without limit.
 */
export function createMemoryCheckinBuffer(options: { maxEntries?: number } = {}): CheckinBuffer & {
  /** Adds an aggregate's counts back (a push to Redis that failed, redis-checkins.ts). */
  merge(aggregate: AggregatedCheckin): void;
  readonly size: number;
  readonly dropped: number;
} {
  const maxEntries = options.maxEntries ?? 100_000;
  const entries = new Map<string, AggregatedCheckin>();
  let dropped = 0;
  function merge(aggregate: AggregatedCheckin): void {
    const key = checkinAggregateKey(aggregate);
    const entry = entries.get(key);
    if (entry) {
      entry.count += aggregate.count;
      if (aggregate.firstAt < entry.firstAt) entry.firstAt = aggregate.firstAt;
      if (aggregate.lastAt > entry.lastAt) entry.lastAt = aggregate.lastAt;
    } else if (entries.size < maxEntries) {
      entries.set(key, { ...aggregate });
    } else {
      dropped += aggregate.count;
    }
  }
  return {
    add(checkin) {
      const entry = entries.get(checkinAggregateKey(checkin));
      if (entry) {
        entry.count += 1;
        // Compared as numbers: a Date compared with `<` is converted through its valueOf, on every validation.
        const at = checkin.at.getTime();
        if (at < entry.firstAt.getTime()) entry.firstAt = checkin.at;
        if (at > entry.lastAt.getTime()) entry.lastAt = checkin.at;
      } else {
        const { at, ...aggregate } = checkin;
        merge({ ...aggregate, count: 1, firstAt: at, lastAt: at });
      }
    },
    merge,
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
