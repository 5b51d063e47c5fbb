import { describe, expect, it } from 'vitest';
import type { FastifyBaseLogger } from 'fastify';
import { createMemoryCheckinBuffer } from '../../integrations/shared-state/memory-checkins';
import type { AggregatedCheckin, Checkin } from '../../integrations/shared-state/port';
import { CHECKIN_BATCH_SIZE, createCheckinFlusher, mergeAggregates } from './checkin-flusher';

const log = { error: () => {} } as unknown as FastifyBaseLogger;
const checkin = (domain: string, at: number, extra: Partial<Checkin> = {}): Checkin => ({
  keyId: 1,
  domain,
  version: '1.0.0',
  edition: 'LITE',
  covered: true,
  at: new Date(at),
  ...extra,
});

describe('memory check-in buffer', () => {
  it('aggregates per (key, domain, version, edition, covered), keeping the first and last time', async () => {
    const buffer = createMemoryCheckinBuffer();
    await buffer.add(checkin('a.com', 2000));
    await buffer.add(checkin('a.com', 1000));
    await buffer.add(checkin('a.com', 3000));
    await buffer.add(checkin('a.com', 1500, { covered: false }));
    await buffer.add(checkin('b.com', 1000));
    const drained = await buffer.drain(10);
    expect(drained).toHaveLength(3);
    expect(drained.find((row) => row.domain === 'a.com' && row.covered)).toMatchObject({
      count: 3,
      firstAt: new Date(1000),
      lastAt: new Date(3000),
    });
    expect(await buffer.drain(10)).toEqual([]);
  });

  it('drains at most `max` at a time and drops new aggregates past its bound', async () => {
    const buffer = createMemoryCheckinBuffer({ maxEntries: 2 });
    await buffer.add(checkin('a.com', 1));
    await buffer.add(checkin('b.com', 1));
    await buffer.add(checkin('c.com', 1));
    await buffer.add(checkin('a.com', 2));
    expect(buffer.dropped).toBe(1);
    expect(await buffer.drain(1)).toHaveLength(1);
    expect(await buffer.drain(5)).toHaveLength(1);
  });
});

describe('check-in flusher', () => {
  it('writes everything in batches and keeps a failed batch for the next flush', async () => {
    const buffer = createMemoryCheckinBuffer();
    for (let i = 0; i < CHECKIN_BATCH_SIZE + 3; i += 1) await buffer.add(checkin(`d${i}.com`, i));
    const written: AggregatedCheckin[][] = [];
    let failNext = true;
    const flusher = createCheckinFlusher({
      buffer,
      intervalMs: 60_000,
      log,
      write: async (batch) => {
        if (failNext) {
          failNext = false;
          throw new Error('database away');
        }
        written.push(batch);
      },
    });
    await expect(flusher.flush()).rejects.toThrow('database away');
    expect(written).toEqual([]);
    await flusher.flush();
    expect(written.map((batch) => batch.length)).toEqual([CHECKIN_BATCH_SIZE, 3]);
    await flusher.stop();
  });

  it('merges duplicates of one aggregate before writing', () => {
    const a = { keyId: 1, domain: 'a.com', version: '1', edition: 'PRO' as const, covered: true };
    expect(
      mergeAggregates([
        { ...a, count: 2, firstAt: new Date(5), lastAt: new Date(9) },
        { ...a, count: 3, firstAt: new Date(1), lastAt: new Date(7) },
      ]),
    ).toEqual([{ ...a, count: 5, firstAt: new Date(1), lastAt: new Date(9) }]);
  });
});
