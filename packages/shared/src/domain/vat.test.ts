import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { verifyVatNumber } from '../contracts/billing';
import { formatVatRate } from './money';
import {
  calculateVat,
  DEFAULT_VAT_RATE_TABLE,
  isIsoDate,
  utcDate,
  VAT_RATE_CHANGES,
  vatRateBpOn,
  type VatInput,
  EU_MEMBER_STATES,
  isEuMemberState,
  normalizeVatId,
  REVERSE_CHARGE_LABEL,
  reverseChargeApplies,
  shouldVerifyVatId,
  VAT_MESSAGES,
  VAT_RATES_BP,
  VAT_VERIFY_DEBOUNCE_MS,
  VAT_VERIFY_MIN_LENGTH,
  vatCentsFor,
  vatIdCountry,
  vatIdMatchesCountry,
  vatRateBp,
  vatRateBpFromPercent,
  vatRatePercent,
} from './vat';

/** A day before the first rate change after the spec's table: the §9 rates apply as written. */
const SPEC_DAY = '2022-12-31';
/** calculateVat on SPEC_DAY with the default table (no seller country), unless the input says otherwise. */
const calc = (input: Omit<VatInput, 'date' | 'rates'> & Partial<Pick<VatInput, 'date' | 'rates'>>) =>
  calculateVat({ date: SPEC_DAY, rates: DEFAULT_VAT_RATE_TABLE, ...input });

/** §9 "VAT rates by country", copied row by row from the spec. */
const SPEC_TABLE: ReadonlyArray<[string, string]> = [
  ['17%', 'LU'],
  ['18%', 'MT, IN'],
  ['19%', 'CY, DE, RO'],
  ['20%', 'AT, BG, EE, FR, SK, GB'],
  ['21%', 'BE, CZ, ES, LT, LV, NL'],
  ['22%', 'IT, SI'],
  ['23%', 'IE, PL, PT'],
  ['24%', 'FI, GR'],
  ['25%', 'DK, HR, SE, NO'],
  ['27%', 'HU'],
  ['7.7%', 'CH'],
  ['10%', 'AU'],
  ['5%', 'CA'],
  ['15%', 'NZ, ZA'],
  ['7%', 'SG'],
  ['6%', 'MY'],
];
const SPEC_COUNTRIES: ReadonlyArray<[country: string, rate: string]> = SPEC_TABLE.flatMap(([rate, list]) =>
  list.split(', ').map((country): [string, string] => [country, rate]),
);
/** The 27 EU member states, alphabetically by English name. */
const EU_27 = 'AT BE BG HR CY CZ DK EE FI FR DE GR HU IE IT LV LT LU MT NL PL PT RO SK SI ES SE'.split(' ');
/** A VAT number of each country, with its VIES prefix (Greece: EL). */
const vatIdOf = (country: string): string =>
  ({ GR: 'EL123456789', GB: 'GB123456789', NO: 'NO123456789MVA', CH: 'CHE-123.456.789 MWST' })[country] ??
  `${country}123456789`;

describe('§9 VAT table', () => {
  it('lists 37 countries (the EU 27 and ten more), and VAT_RATES_BP holds exactly those', () => {
    expect(SPEC_COUNTRIES).toHaveLength(37);
    expect(Object.keys(VAT_RATES_BP).sort()).toEqual(SPEC_COUNTRIES.map(([c]) => c).sort());
  });

  it.each(SPEC_COUNTRIES)('%s pays %s', (country, rate) => {
    expect(formatVatRate(vatRateBp(country))).toBe(rate);
    expect(formatVatRate(vatRateBp(country.toLowerCase()))).toBe(rate);
  });

  it.each([
    'US',
    'JP',
    'BR',
    'CN',
    'AE',
    'XI',
    'EL',
    'XX',
    '',
    'constructor',
    '__proto__',
    'toString',
    'hasOwnProperty',
  ])('%j pays 0%', (country) => {
    expect(vatRateBp(country)).toBe(0);
    expect(calc({ amountCents: 12000, country, isBusiness: false, vatId: null })).toEqual({
      baseCents: 12000,
      vatCents: 0,
      totalCents: 12000,
      rateBp: 0,
      reverseCharge: false,
    });
  });

  it('is frozen', () => {
    expect(Object.isFrozen(VAT_RATES_BP)).toBe(true);
  });
});

describe('EU member states', () => {
  it('are the 27, each in the §9 table', () => {
    expect([...EU_MEMBER_STATES].sort()).toEqual([...EU_27].sort());
    expect(new Set(EU_MEMBER_STATES).size).toBe(27);
    for (const c of EU_MEMBER_STATES) expect(vatRateBp(c)).toBeGreaterThan(0);
  });

  it.each(['GB', 'NO', 'CH', 'IS', 'LI', 'XI', 'EL', 'EU', 'de'])('%s is not one', (c) => {
    expect(isEuMemberState(c)).toBe(false);
  });
});

describe('calculateVat for every §9 country, $120.00', () => {
  const expectedVat = (rate: string): number => Math.round((12000 * Number(rate.replace('%', ''))) / 100);

  describe.each(SPEC_COUNTRIES)('%s (%s)', (country, rate) => {
    const full = { baseCents: 12000, vatCents: expectedVat(rate), totalCents: 12000 + expectedVat(rate) };

    it('consumer pays the rate', () => {
      expect(calc({ amountCents: 12000, country, isBusiness: false, vatId: null })).toEqual({
        ...full,
        rateBp: vatRateBp(country),
        reverseCharge: false,
      });
    });

    it('consumer who typed a VAT number still pays the rate', () => {
      expect(calc({ amountCents: 12000, country, isBusiness: false, vatId: vatIdOf(country) })).toMatchObject({
        ...full,
        reverseCharge: false,
      });
    });

    it('business without a VAT number pays the rate', () => {
      for (const vatId of [null, undefined, '']) {
        expect(calc({ amountCents: 12000, country, isBusiness: true, vatId })).toMatchObject({
          ...full,
          reverseCharge: false,
        });
      }
    });

    const eu = EU_27.includes(country);
    it(
      eu
        ? 'business with its own country’s VAT number: reverse charge, VAT 0'
        : 'business with its own VAT number still pays (not an EU member state)',
      () => {
        const result = calc({ amountCents: 12000, country, isBusiness: true, vatId: vatIdOf(country) });
        expect(result).toEqual(
          eu
            ? { baseCents: 12000, vatCents: 0, totalCents: 12000, rateBp: 0, reverseCharge: true }
            : { ...full, rateBp: vatRateBp(country), reverseCharge: false },
        );
      },
    );
  });

  it('Germany: $120.00 + $22.80 = $142.80', () => {
    expect(calc({ amountCents: 12000, country: 'DE', isBusiness: false, vatId: null })).toEqual({
      baseCents: 12000,
      vatCents: 2280,
      totalCents: 14280,
      rateBp: 1900,
      reverseCharge: false,
    });
  });

  it('Switzerland 7.7% of $220.00 is $16.94', () => {
    expect(calc({ amountCents: 22000, country: 'CH', isBusiness: true, vatId: vatIdOf('CH') })).toEqual({
      baseCents: 22000,
      vatCents: 1694,
      totalCents: 23694,
      rateBp: 770,
      reverseCharge: false,
    });
  });
});

describe('reverse charge needs the VAT number of the billing country', () => {
  it.each<[string, string, boolean, number]>([
    ['DE', 'DE123456789', true, 0],
    ['de', 'de 123 456 789', true, 0],
    [' DE ', 'DE-123.456.789', true, 0],
    ['GR', 'EL123456789', true, 0],
    ['GR', 'GR123456789', false, 2880],
    ['DE', 'FR12345678901', false, 2280],
    ['FR', 'DE123456789', false, 2400],
    ['AT', 'ATU12345678', true, 0],
    ['AT', 'DE123456789', false, 2400],
    ['US', 'DE123456789', false, 0],
    ['GB', 'DE123456789', false, 2400],
    ['DE', 'GB123456789', false, 2280],
    ['IE', 'XI123456789', false, 2760],
    ['DE', 'DE', false, 2280],
    ['DE', '123456789', false, 2280],
    ['DE', '   ', false, 2280],
    ['DE', 'D1123456789', false, 2280],
  ])('billing %j, VAT number %j → reverse %s, VAT %d¢', (country, vatId, reverse, vatCents) => {
    const result = calc({ amountCents: 12000, country, isBusiness: true, vatId });
    expect(result.reverseCharge).toBe(reverse);
    expect(result.vatCents).toBe(vatCents);
    expect(reverseChargeApplies({ country, isBusiness: true, vatId })).toBe(reverse);
  });

  it('never for a consumer', () => {
    expect(reverseChargeApplies({ country: 'DE', isBusiness: false, vatId: 'DE123456789' })).toBe(false);
  });
});

describe('rounding: half up to a whole cent', () => {
  it.each<[number, number, number]>([
    [0, 1900, 0],
    [1, 1900, 0], // 0.19¢
    [2, 2500, 1], // 0.5¢ → 1¢
    [3, 1700, 1], // 0.51¢
    [10, 1500, 2], // 1.5¢ → 2¢
    [50, 1900, 10], // 9.5¢ → 10¢
    [50, 770, 4], // 3.85¢
    [26, 1900, 5], // 4.94¢
    [6494, 770, 500], // 500.038¢
    [6500, 770, 501], // 500.5¢ → 501¢
    [99, 2100, 21], // 20.79¢
    [12000, 770, 924],
    [32000, 2700, 8640],
    [10_000_000, 2700, 2_700_000],
    [Number.MAX_SAFE_INTEGER, 0, 0],
  ])('%d¢ at %d bp → %d¢', (amount, rate, vat) => {
    expect(vatCentsFor(amount, rate)).toBe(vat);
  });

  it.each<[number, number]>([
    [-1, 1900],
    [1.5, 1900],
    [Number.NaN, 1900],
    [100, -1],
    [100, 7.7],
  ])('refuses amount %d at rate %d', (amount, rate) => {
    expect(() => vatCentsFor(amount, rate)).toThrow(RangeError);
  });

  it('calculateVat refuses a negative or fractional amount', () => {
    expect(() => calc({ amountCents: -100, country: 'DE', isBusiness: false, vatId: null })).toThrow(RangeError);
    expect(() => calc({ amountCents: 120.5, country: 'US', isBusiness: false, vatId: null })).toThrow(RangeError);
  });

  it('holds for any amount, country and buyer: base + vat = total, vat ≥ 0, off by at most half a cent', () => {
    const countries = [...Object.keys(VAT_RATES_BP), 'US', 'JP', 'XI', 'de', 'gr'];
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 100_000_000_000 }),
        fc.constantFrom(...countries),
        fc.boolean(),
        fc.option(
          fc.oneof(
            fc.constantFrom(...countries).map((c) => vatIdOf(c.toUpperCase())),
            fc.string({ maxLength: 20 }),
          ),
        ),
        (amountCents, country, isBusiness, vatId) => {
          const r = calc({ amountCents, country, isBusiness, vatId });
          expect(Number.isSafeInteger(r.vatCents)).toBe(true);
          expect(r.baseCents).toBe(amountCents);
          expect(r.baseCents + r.vatCents).toBe(r.totalCents);
          expect(r.vatCents).toBeGreaterThanOrEqual(0);
          if (r.reverseCharge) {
            expect(r.vatCents).toBe(0);
            expect(r.rateBp).toBe(0);
            expect(isBusiness).toBe(true);
          } else {
            expect(r.rateBp).toBe(vatRateBp(country));
          }
          // Exact: vat·10000 − amount·rate lies in (−5000, 5000].
          const error = BigInt(r.vatCents) * 10000n - BigInt(amountCents) * BigInt(r.rateBp);
          expect(error > -5000n && error <= 5000n).toBe(true);
        },
      ),
    );
  });
});

describe('VAT numbers', () => {
  it.each<[string, string]>([
    ['de123456789', 'DE123456789'],
    [' DE 123 456 789 ', 'DE123456789'],
    ['de-123.456.789', 'DE123456789'],
    ['el 123456789', 'EL123456789'],
    ['CHE-123.456.789 MWST', 'CHE123456789MWST'],
    ['ie1234567t\t', 'IE1234567T'],
    ['NL\u00a0123456789B01', 'NL123456789B01'],
    ['', ''],
  ])('normalizeVatId(%j) → %j', (raw, normalized) => {
    expect(normalizeVatId(raw)).toBe(normalized);
  });

  it.each<[string, string | null]>([
    ['DE123456789', 'DE'],
    ['de 123 456 789', 'DE'],
    ['EL123456789', 'GR'],
    ['el-123456789', 'GR'],
    ['GR123456789', null],
    ['ATU12345678', 'AT'],
    ['IE1234567WA', 'IE'],
    ['IE1234567+A', 'IE'],
    ['NL123456789B01', 'NL'],
    ['FR12345678901', 'FR'],
    ['GB123456789', 'GB'],
    ['XI123456789', 'XI'],
    ['NO123456789MVA', 'NO'],
    ['CHE-123.456.789 MWST', 'CH'],
    ['DE', null],
    ['DE1', null],
    ['D1123456789', null],
    ['123456789', null],
    ['DE123456789012345', null],
    ['DE12345_789', null],
    ['', null],
  ])('vatIdCountry(%j) → %j', (vatId, country) => {
    expect(vatIdCountry(vatId)).toBe(country);
  });

  it.each<[string, string, boolean]>([
    ['DE123456789', 'DE', true],
    ['DE123456789', 'de', true],
    ['EL123456789', 'GR', true],
    ['EL123456789', 'EL', false],
    ['DE123456789', 'AT', false],
    ['GB123456789', 'GB', true],
    ['DE', 'DE', false],
  ])('vatIdMatchesCountry(%j, %j) → %s', (vatId, country, matches) => {
    expect(vatIdMatchesCountry(vatId, country)).toBe(matches);
  });

  it.each<[string, boolean]>([
    ['DE12345', false],
    ['DE 12 34 5', false],
    ['DE123456', true],
    ['de-123.456', true],
    ['DE123456789', true],
  ])('verification starts for %j: %s', (raw, starts) => {
    expect(shouldVerifyVatId(raw)).toBe(starts);
  });

  it('§4/§9: after 1 second, from 8 characters', () => {
    expect(VAT_VERIFY_MIN_LENGTH).toBe(8);
    expect(VAT_VERIFY_DEBOUNCE_MS).toBe(1000);
  });
});

describe('§5/§8 texts', () => {
  it('are the spec’s', () => {
    expect(VAT_MESSAGES).toEqual({
      required: 'Please enter a VAT number',
      invalid: 'VAT number is not valid',
      verifyFailed: 'Failed to verify VAT number. Please try again.',
    });
    expect(REVERSE_CHARGE_LABEL).toBe('Reverse Charge');
  });

  it('the verify contract refuses a blank number and an overlong one with them', () => {
    const blank = verifyVatNumber.body.safeParse({ vat_number: '   ' });
    expect(blank.success ? null : blank.error.issues[0]?.message).toBe(VAT_MESSAGES.required);
    const long = verifyVatNumber.body.safeParse({ vat_number: 'DE'.padEnd(21, '1') });
    expect(long.success ? null : long.error.issues[0]?.message).toBe(VAT_MESSAGES.invalid);
  });
});

describe('the contract’s percent', () => {
  it.each(Object.values(VAT_RATES_BP))('%d bp ↔ percent', (bp) => {
    expect(vatRateBpFromPercent(vatRatePercent(bp))).toBe(bp);
  });

  it('7.7% is 770 bp, 19% is 1900 bp', () => {
    expect(vatRatePercent(770)).toBe(7.7);
    expect(vatRatePercent(1900)).toBe(19);
    expect(vatRateBpFromPercent(7.7)).toBe(770);
  });

  it.each([-1, 101, Number.NaN, Infinity])('%d is no rate', (p) => {
    expect(vatRateBpFromPercent(p)).toBeNull();
  });
});

describe('rates with start dates (ADR 036)', () => {
  /** The standard rates in force on 2026-11-26 for every §9 country (ADR 036 cites a source for each change). */
  const TODAY = '2026-11-26';
  const IN_FORCE_TODAY: Record<string, string> = {
    ...Object.fromEntries(SPEC_COUNTRIES.map(([country, rate]) => [country, rate])),
    EE: '24%',
    FI: '25.5%',
    SK: '23%',
    RO: '21%',
    CH: '8.1%',
    SG: '9%',
    MY: '8%',
  };

  it.each(Object.entries(IN_FORCE_TODAY))('%s pays %s today', (country, rate) => {
    expect(formatVatRate(vatRateBpOn(DEFAULT_VAT_RATE_TABLE, country, TODAY))).toBe(rate);
  });

  it.each<[string, string, string]>([
    ['EE', '2023-12-31', '20%'],
    ['EE', '2024-01-01', '22%'],
    ['EE', '2025-06-30', '22%'],
    ['EE', '2025-07-01', '24%'],
    ['FI', '2024-08-31', '24%'],
    ['FI', '2024-09-01', '25.5%'],
    ['SK', '2024-12-31', '20%'],
    ['SK', '2025-01-01', '23%'],
    ['RO', '2025-07-31', '19%'],
    ['RO', '2025-08-01', '21%'],
    ['CH', '2023-12-31', '7.7%'],
    ['CH', '2024-01-01', '8.1%'],
    ['SG', '2022-12-31', '7%'],
    ['SG', '2023-01-01', '8%'],
    ['SG', '2024-01-01', '9%'],
    ['LU', '2023-06-01', '16%'],
    ['LU', '2024-01-01', '17%'],
    ['MY', '2024-02-29', '6%'],
    ['MY', '2024-03-01', '8%'],
    ['DE', '1999-01-01', '19%'],
    ['US', TODAY, '0%'],
  ])('%s on %s pays %s', (country, date, rate) => {
    expect(formatVatRate(vatRateBpOn(DEFAULT_VAT_RATE_TABLE, country, date))).toBe(rate);
  });

  it('a quote on 2025-06-30 and one on 2025-07-01 in Estonia: 22% then 24%', () => {
    const quote = (date: string) =>
      calculateVat({
        amountCents: 12000,
        country: 'EE',
        isBusiness: false,
        vatId: null,
        date,
        rates: DEFAULT_VAT_RATE_TABLE,
      });
    expect(quote('2025-06-30')).toMatchObject({ rateBp: 2200, vatCents: 2640, totalCents: 14640 });
    expect(quote('2025-07-01')).toMatchObject({ rateBp: 2400, vatCents: 2880, totalCents: 14880 });
  });

  it('a rate staff add applies from its start date; a later row with the same start corrects an earlier one', () => {
    const table = [
      ...DEFAULT_VAT_RATE_TABLE,
      { country: 'DE', rateBp: 2100, from: '2027-01-01' },
      { country: 'DE', rateBp: 2000, from: '2027-01-01' },
    ];
    expect(vatRateBpOn(table, 'DE', '2026-12-31')).toBe(1900);
    expect(vatRateBpOn(table, 'de', '2027-01-01')).toBe(2000);
    // Order of the rows does not matter except between equal starts.
    expect(vatRateBpOn([...table].reverse(), 'DE', '2027-06-01')).toBe(2100);
    expect(vatRateBpOn(table, 'US', '2027-06-01')).toBe(0);
  });

  it('a country the baseline does not list can get a rate', () => {
    const table = [...DEFAULT_VAT_RATE_TABLE, { country: 'JP', rateBp: 1000, from: '2026-01-01' }];
    expect(vatRateBpOn(table, 'JP', '2025-12-31')).toBe(0);
    expect(vatRateBpOn(table, 'JP', '2026-01-01')).toBe(1000);
  });

  it('changes are frozen, dated, and of §9 countries', () => {
    expect(Object.isFrozen(VAT_RATE_CHANGES)).toBe(true);
    for (const change of VAT_RATE_CHANGES) {
      expect(isIsoDate(change.from!)).toBe(true);
      expect(Object.keys(VAT_RATES_BP)).toContain(change.country);
    }
  });

  it.each(['2025-7-1', '2025-02-30', '20250701', '', 'today', '2025-13-01'])('refuses the date %j', (date) => {
    expect(isIsoDate(date)).toBe(false);
    expect(() => vatRateBpOn(DEFAULT_VAT_RATE_TABLE, 'DE', date)).toThrow(RangeError);
  });

  it('utcDate is the UTC calendar day', () => {
    expect(utcDate(new Date('2025-06-30T23:59:59.999Z'))).toBe('2025-06-30');
    expect(utcDate(new Date('2025-07-01T00:00:00Z'))).toBe('2025-07-01');
  });
});

describe('the seller’s own country is never reverse charged (ADR 036)', () => {
  it('an Irish seller: an Irish business with a valid Irish VAT ID pays Irish VAT; a German one is reverse charged', () => {
    const irish = calc({
      amountCents: 12000,
      country: 'IE',
      isBusiness: true,
      vatId: 'IE6388047V',
      sellerCountry: 'IE',
    });
    expect(irish).toEqual({ baseCents: 12000, vatCents: 2760, totalCents: 14760, rateBp: 2300, reverseCharge: false });
    const german = calc({
      amountCents: 12000,
      country: 'DE',
      isBusiness: true,
      vatId: 'DE123456789',
      sellerCountry: 'IE',
    });
    expect(german).toMatchObject({ vatCents: 0, reverseCharge: true });
    expect(reverseChargeApplies({ country: 'ie', isBusiness: true, vatId: 'IE6388047V', sellerCountry: ' ie ' })).toBe(
      false,
    );
  });

  it('a seller outside the EU changes nothing', () => {
    expect(
      calc({ amountCents: 12000, country: 'DE', isBusiness: true, vatId: 'DE123456789', sellerCountry: 'US' }),
    ).toMatchObject({ reverseCharge: true });
    expect(
      calc({ amountCents: 12000, country: 'DE', isBusiness: true, vatId: 'DE123456789', sellerCountry: null }),
    ).toMatchObject({ reverseCharge: true });
  });
});
