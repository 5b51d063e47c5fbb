import type { Tier } from '@keyport/shared/domain/tiers';

/**
 * Issue 13: state that must be shared when the portal runs as several processes. Without REDIS_URL each port has an
 * in-memory adapter (one process, as before); with it, a Redis adapter. Services depend on these ports only.
 */

/** One validation call's check-in: recorded without a database write per request. */
export interface Checkin {
  keyId: number;
  /** The normalised storefront domain. */
  domain: string;
  version: string;
  edition: Tier;
  /** The key's token covers this domain. */
  covered: boolean;
  at: Date;
}

/** Check-ins of one (key, domain, version, edition, covered) since the last drain. */
export interface AggregatedCheckin extends Omit<Checkin, 'at'> {
  count: number;
  firstAt: Date;
  lastAt: Date;
}

export interface CheckinBuffer {
  /**
   * Counts a check-in: never the database. A buffer that counts in memory counts at once and gives no promise (both
   * of ours: Redis gets the aggregates later, redis-checkins.ts); one that must wait gives a promise (ADR 048: the
   * validation awaits only a promise).
   */
  add(checkin: Checkin): void | Promise<void>;
  /** Takes and removes up to `max` aggregates (atomically: two processes never drain the same one). */
  drain(max: number): Promise<AggregatedCheckin[]>;
}

/** A fixed-window counter shared by every process (rate limits). */
export interface WindowCounter {
  /**
   * Adds `by` to the key's window and answers the count after it and when the window resets (epoch ms). A counter that
   * knows the answer at once may give it without a promise (the batched counter's local hits, ADR 047).
   */
  incr(
    key: string,
    windowMs: number,
    by?: number,
  ): Promise<{ count: number; resetAt: number }> | { count: number; resetAt: number };
  /** The key's current count without changing it. */
  peek(key: string): Promise<{ count: number; resetAt: number } | null>;
  reset(key: string): Promise<void>;
}

/** Tells every process that a session (by token hash) is gone, so no cache keeps honouring it. */
export interface SessionRevocations {
  revoke(tokenHash: string): Promise<void>;
  /** Called in this process for every revocation, from any process (this one included). */
  onRevoked(listener: (tokenHash: string) => void): void;
  close(): Promise<void>;
}

/**
 * Tells every process that a key's state (owner, tier, token version) changed, so no process keeps validating licenses
 * from a stale cache entry (ADR 032; the validation API's key-state cache, ADR 031).
 */
export interface KeyStateChanges {
  announce(keyId: number): Promise<void>;
  /** Called in this process for every change, from any process (this one included). */
  onChanged(listener: (keyId: number) => void): void;
  close(): Promise<void>;
}
