import { describe, expect, it } from 'vitest';
import { isEmptyValue, normaliseOptionalText } from './empty-value';

describe('§3 empty values', () => {
  it.each([
    [null, true, ''],
    [undefined, true, ''],
    ['', true, ''],
    ['   ', true, ''],
    ['None', true, ''],
    [' None ', true, ''],
    ['none', true, ''],
    ['shop.com', false, 'shop.com'],
    ['  shop.com  ', false, 'shop.com'],
    ['Nonesuch.com', false, 'Nonesuch.com'],
  ])('%j → empty %s, normalised %j', (value, empty, normalised) => {
    expect(isEmptyValue(value)).toBe(empty);
    expect(normaliseOptionalText(value)).toBe(normalised);
  });
});
