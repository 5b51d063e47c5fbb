import { describe, expect, it } from 'vitest';
import {
  computeSupportStatus,
  describeSupportStatus,
  formatUtcDate,
  type SupportStatus,
  type SupportUser,
} from './support-status';

const NOW = new Date('2026-06-15T12:00:00Z');
const d = (iso: string): Date => new Date(iso);

describe('§4 computeSupportStatus: has_lifetime_support flag', () => {
  it.each<[string, SupportUser, SupportStatus]>([
    ['true → lifetime', { has_lifetime_support: true }, { kind: 'lifetime' }],
    [
      'true ignores old orders',
      { has_lifetime_support: true, orders: [{ created_at: '2001-01-01' }] },
      { kind: 'lifetime' },
    ],
    ['future date → active', { has_lifetime_support: '2027-03-01' }, { kind: 'active', until: d('2027-03-01') }],
    [
      'future datetime → active',
      { has_lifetime_support: '2026-06-15T12:00:01Z' },
      { kind: 'active', until: d('2026-06-15T12:00:01Z') },
    ],
    [
      'exactly now → expired',
      { has_lifetime_support: '2026-06-15T12:00:00Z' },
      { kind: 'expired', until: d('2026-06-15T12:00:00Z') },
    ],
    ['past date → expired', { has_lifetime_support: '2025-01-31' }, { kind: 'expired', until: d('2025-01-31') }],
    ['invalid date → unknown', { has_lifetime_support: 'not-a-date' }, { kind: 'unknown' }],
    ['empty string → unknown', { has_lifetime_support: '' }, { kind: 'unknown' }],
    ["'true' text → unknown", { has_lifetime_support: 'true' }, { kind: 'unknown' }],
    ["bare number text '1' → unknown", { has_lifetime_support: '1' }, { kind: 'unknown' }],
    ['impossible day 2027-02-31 → unknown', { has_lifetime_support: '2027-02-31' }, { kind: 'unknown' }],
    ['month 13 → unknown', { has_lifetime_support: '2027-13-01' }, { kind: 'unknown' }],
    [
      'HTTP date → active',
      { has_lifetime_support: 'Mon, 01 Mar 2027 00:00:00 GMT' },
      { kind: 'active', until: d('2027-03-01T00:00:00Z') },
    ],
    [
      'padded date string → active',
      { has_lifetime_support: ' 2027-03-01 ' },
      { kind: 'active', until: d('2027-03-01') },
    ],
    [
      'leap day 2028-02-29 → active',
      { has_lifetime_support: '2028-02-29' },
      { kind: 'active', until: d('2028-02-29') },
    ],
    ['false → expired', { has_lifetime_support: false }, { kind: 'expired' }],
    [
      'false ignores recent orders',
      { has_lifetime_support: false, orders: [{ created_at: '2026-06-01' }] },
      { kind: 'expired' },
    ],
  ])('%s', (_label, user, expected) => {
    expect(computeSupportStatus(user, NOW)).toEqual(expected);
  });
});

describe('§4/§9 computeSupportStatus: unset flag uses newest order + 1 year', () => {
  it.each<[string, SupportUser, SupportStatus]>([
    [
      'undefined, recent order → active',
      { orders: [{ created_at: '2026-01-10T00:00:00Z' }] },
      { kind: 'active', until: d('2027-01-10T00:00:00Z') },
    ],
    [
      'null, recent order → active',
      { has_lifetime_support: null, orders: [{ created_at: '2025-07-01T00:00:00Z' }] },
      { kind: 'active', until: d('2026-07-01T00:00:00Z') },
    ],
    [
      'old order → expired',
      { orders: [{ created_at: '2024-03-05T08:00:00Z' }] },
      { kind: 'expired', until: d('2025-03-05T08:00:00Z') },
    ],
    [
      'newest of several wins (unsorted)',
      {
        orders: [
          { created_at: '2023-01-01T00:00:00Z' },
          { created_at: '2026-02-02T00:00:00Z' },
          { created_at: '2024-01-01T00:00:00Z' },
        ],
      },
      { kind: 'active', until: d('2027-02-02T00:00:00Z') },
    ],
    [
      'invalid order dates skipped',
      { orders: [{ created_at: 'garbage' }, { created_at: '2025-12-24T00:00:00Z' }] },
      { kind: 'active', until: d('2026-12-24T00:00:00Z') },
    ],
    [
      'one year to the instant → expired',
      { orders: [{ created_at: '2025-06-15T12:00:00Z' }] },
      { kind: 'expired', until: d('2026-06-15T12:00:00Z') },
    ],
    [
      'leap day + 1 year → 1 March',
      { orders: [{ created_at: '2024-02-29T00:00:00Z' }] },
      { kind: 'expired', until: d('2025-03-01T00:00:00Z') },
    ],
    ['no orders → unknown', { orders: [] }, { kind: 'unknown' }],
    ['orders missing → unknown', {}, { kind: 'unknown' }],
    ['orders null → unknown', { orders: null }, { kind: 'unknown' }],
    ['only invalid order dates → unknown', { orders: [{ created_at: '' }, { created_at: 'x' }] }, { kind: 'unknown' }],
  ])('%s', (_label, user, expected) => {
    expect(computeSupportStatus(user, NOW)).toEqual(expected);
  });
});

describe('§4 computeSupportStatus: anything else → unknown', () => {
  it.each<[string, unknown]>([
    ['number', 1],
    ['object', { until: '2027-01-01' }],
    ['array', ['2027-01-01']],
  ])('%s', (_label, flag) => {
    const user = {
      has_lifetime_support: flag,
      orders: [{ created_at: '2026-01-01' }],
    } as SupportUser;
    expect(computeSupportStatus(user, NOW)).toEqual({ kind: 'unknown' });
  });
  it('tolerates malformed order entries from JSON', () => {
    const user = {
      orders: [null, 5, { created_at: 7 }, { created_at: '2026-01-01T00:00:00Z' }],
    } as unknown as SupportUser;
    expect(computeSupportStatus(user, NOW)).toEqual({
      kind: 'active',
      until: d('2027-01-01T00:00:00Z'),
    });
  });
});

describe('describeSupportStatus', () => {
  it.each<[SupportStatus, string]>([
    [{ kind: 'lifetime' }, 'Lifetime support'],
    [{ kind: 'active', until: d('2027-03-01T00:00:00Z') }, 'Support active until 2027-03-01'],
    [{ kind: 'active', until: d('2027-03-01T23:30:00-05:00') }, 'Support active until 2027-03-02'],
    [{ kind: 'expired', until: d('2025-01-31T00:00:00Z') }, 'Support expired on 2025-01-31'],
    [{ kind: 'expired' }, 'Support expired'],
    [{ kind: 'unknown' }, 'Support status unknown'],
  ])('%j → %s', (status, label) => {
    expect(describeSupportStatus(status)).toBe(label);
  });
  it.each<[string, string]>([
    ['0999-12-31T00:00:00Z', '0999-12-31'],
    ['+010000-01-01T00:00:00Z', '10000-01-01'],
  ])('formatUtcDate(%s) → %s', (iso, expected) => {
    expect(formatUtcDate(d(iso))).toBe(expected);
  });
});
