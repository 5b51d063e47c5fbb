import type { FastifyBaseLogger } from 'fastify';
import { checkinAggregateKey } from '../../integrations/shared-state/memory-checkins';
import type { AggregatedCheckin, CheckinBuffer } from '../../integrations/shared-state/port';

/** At most this many aggregates per statement. */
export const CHECKIN_BATCH_SIZE = 500;

/**
 * Drains the check-in buffer every `intervalMs` and writes what it held with `write` (one upsert per batch, ADR 031).
 * A batch whose write fails is kept here and written first on the next flush, so a database blip loses no counts (a
 * process that dies meanwhile loses them, as it loses what it had not drained yet). `stop` writes what is left: the
 * app's close runs it.
 */
export function createCheckinFlusher(options: {
  buffer: CheckinBuffer;
  write: (batch: AggregatedCheckin[]) => Promise<void>;
  intervalMs: number;
  log: FastifyBaseLogger;
}) {
  const { buffer, write, intervalMs, log } = options;
  let timer: NodeJS.Timeout | null = null;
  let retry: AggregatedCheckin[] = [];
  let running: Promise<number> | null = null;

  async function drainAndWrite(): Promise<number> {
    let written = 0;
    if (retry.length > 0) {
      const batch = retry;
      retry = [];
      written += await writeBatch(batch);
    }
    for (;;) {
      const drained = await buffer.drain(CHECKIN_BATCH_SIZE);
      if (drained.length === 0) return written;
      written += await writeBatch(mergeAggregates(drained));
      if (drained.length < CHECKIN_BATCH_SIZE) return written;
    }
  }

  async function writeBatch(batch: AggregatedCheckin[]): Promise<number> {
    try {
      await write(batch);
      return batch.length;
    } catch (error) {
      retry = mergeAggregates([...retry, ...batch]);
      throw error;
    }
  }

  /** Writes everything buffered now (one flush at a time: a second call waits for the running one, then runs). */
  async function flush(): Promise<number> {
    while (running) await running.catch(() => 0);
    running = drainAndWrite();
    try {
      return await running;
    } finally {
      running = null;
    }
  }

  return {
    flush,
    start(): void {
      if (timer) return;
      timer = setInterval(() => {
        flush().catch((error: unknown) => log.error({ err: error }, 'check-in flush failed; retried next time'));
      }, intervalMs);
      timer.unref();
    },
    /** Stops the timer and writes what is left. */
    async stop(): Promise<void> {
      if (timer) clearInterval(timer);
      timer = null;
      await flush();
    },
  };
}

/** One aggregate per (key, domain, version, edition, covered): counts added, earliest first and latest last time. */
export function mergeAggregates(aggregates: AggregatedCheckin[]): AggregatedCheckin[] {
  const merged = new Map<string, AggregatedCheckin>();
  for (const aggregate of aggregates) {
    const key = checkinAggregateKey(aggregate);
    const seen = merged.get(key);
    if (!seen) {
      merged.set(key, { ...aggregate });
      continue;
    }
    seen.count += aggregate.count;
    if (aggregate.firstAt < seen.firstAt) seen.firstAt = aggregate.firstAt;
    if (aggregate.lastAt > seen.lastAt) seen.lastAt = aggregate.lastAt;
  }
  return [...merged.values()];
}
