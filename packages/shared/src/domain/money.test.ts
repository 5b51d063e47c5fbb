import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatUsd, formatVatRate, parseUsdToCents } from './money';
import { DEFAULT_UPGRADE_PRICES_CENTS } from './upgrade-paths';

describe('formatUsd', () => {
  it.each<[number, string]>([
    [0, '$0.00'],
    [1, '$0.01'],
    [10, '$0.10'],
    [99, '$0.99'],
    [100, '$1.00'],
    [12000, '$120.00'],
    [22000, '$220.00'],
    [32000, '$320.00'],
    [2280, '$22.80'],
    [14280, '$142.80'],
    [99999, '$999.99'],
    [100000, '$1,000.00'],
    [123456789, '$1,234,567.89'],
    [100000000000, '$1,000,000,000.00'],
    [-1, '-$0.01'],
    [-500, '-$5.00'],
    [-123456, '-$1,234.56'],
    [Number.MAX_SAFE_INTEGER, '$90,071,992,547,409.91'],
  ])('%d → %s', (cents, text) => {
    expect(formatUsd(cents)).toBe(text);
  });

  it('matches Intl en-US currency formatting for ordinary amounts', () => {
    const intl = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });
    fc.assert(
      fc.property(fc.integer({ min: -1_000_000_000, max: 1_000_000_000 }), (cents) => {
        expect(formatUsd(cents)).toBe(intl.format(cents / 100));
      }),
    );
  });

  it('shows the §9 prices', () => {
    expect(Object.values(DEFAULT_UPGRADE_PRICES_CENTS).map(formatUsd)).toEqual(['$120.00', '$220.00', '$320.00']);
  });

  it.each([0.5, 12.34, Number.NaN, Infinity, Number.MAX_SAFE_INTEGER + 1])('refuses %d (not whole cents)', (v) => {
    expect(() => formatUsd(v)).toThrow(RangeError);
  });
});

describe('parseUsdToCents', () => {
  it.each<[string, number]>([
    ['$120.00', 12000],
    ['120', 12000],
    ['120.5', 12050],
    ['120.05', 12005],
    ['0.01', 1],
    ['$0', 0],
    ['-$0.00', 0],
    ['  $1,234.56 ', 123456],
    ['1234.56', 123456],
    ['$1,000,000', 100000000],
    ['-$5', -500],
    ['-5.25', -525],
  ])('%j → %d', (text, cents) => {
    expect(parseUsdToCents(text)).toBe(cents);
  });

  it.each([
    '',
    '$',
    'abc',
    '1.234',
    '1,23',
    '12,34.00',
    '1,2345',
    '$-5',
    '--5',
    '5.',
    '.5',
    '1e3',
    '$ 5',
    '5 $',
    '١٢٣',
  ])('refuses %j', (text) => {
    expect(parseUsdToCents(text)).toBeNull();
  });

  it('refuses amounts beyond safe integers', () => {
    expect(parseUsdToCents('90071992547409.92')).toBeNull();
    expect(parseUsdToCents('90071992547409.91')).toBe(Number.MAX_SAFE_INTEGER);
  });

  it('reads back what formatUsd writes', () => {
    fc.assert(
      fc.property(fc.maxSafeInteger(), (cents) => {
        expect(parseUsdToCents(formatUsd(cents))).toBe(cents);
      }),
    );
  });
});

describe('formatVatRate (basis points)', () => {
  it.each<[number, string]>([
    [0, '0%'],
    [500, '5%'],
    [600, '6%'],
    [700, '7%'],
    [770, '7.7%'],
    [810, '8.1%'],
    [1000, '10%'],
    [1700, '17%'],
    [1900, '19%'],
    [2700, '27%'],
    [1234, '12.34%'],
    [1205, '12.05%'],
    [5, '0.05%'],
    [10000, '100%'],
  ])('%d → %s', (bp, text) => {
    expect(formatVatRate(bp)).toBe(text);
  });

  it.each([-1, 7.7, Number.NaN])('refuses %d', (bp) => {
    expect(() => formatVatRate(bp)).toThrow(RangeError);
  });
});
