import { describe, expect, it } from 'vitest';
import { DEFAULT_COUNTRIES } from './billing';
import { countryName, sortCountriesByName } from './countries';
import { EU_MEMBER_STATES, VAT_RATES_BP } from './vat';

describe('countryName', () => {
  it.each<[string, string]>([
    ['DE', 'Germany'],
    ['de', 'Germany'],
    [' us ', 'United States'],
    ['GB', 'United Kingdom'],
    ['GR', 'Greece'],
    ['CH', 'Switzerland'],
    ['ZA', 'South Africa'],
    ['XX', 'XX'],
    ['xx', 'XX'],
    ['ZZ', 'ZZ'],
    ['D1', 'D1'],
    ['Germany', 'Germany'],
    ['', ''],
  ])('%j → %j', (code, name) => {
    expect(countryName(code)).toBe(name);
  });

  it('names every country of the §9 VAT table and the fallback list', () => {
    for (const code of [...Object.keys(VAT_RATES_BP), ...EU_MEMBER_STATES]) {
      expect(countryName(code)).not.toBe(code);
    }
    for (const c of DEFAULT_COUNTRIES) expect(countryName(c.code)).toBe(c.name);
  });
});

describe('sortCountriesByName', () => {
  it('sorts by English name, ignoring accents and case, without changing its input', () => {
    const input = [
      { code: 'ZA', name: 'South Africa' },
      { code: 'AX', name: 'Åland Islands' },
      { code: 'AF', name: 'Afghanistan' },
      { code: 'US', name: 'United States' },
      { code: 'CI', name: 'Côte d’Ivoire' },
      { code: 'CO', name: 'colombia' },
    ];
    const copy = structuredClone(input);
    expect(sortCountriesByName(input).map((c) => c.code)).toEqual(['AF', 'AX', 'CO', 'CI', 'ZA', 'US']);
    expect(input).toEqual(copy);
  });

  it('keeps the fallback list as it is (already sorted)', () => {
    expect(sortCountriesByName(DEFAULT_COUNTRIES)).toEqual([...DEFAULT_COUNTRIES]);
  });
});
