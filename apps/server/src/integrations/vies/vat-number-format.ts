import { checkVAT, countries, type Country } from 'jsvat';

/** The 27 member states VIES answers for, by the prefix VIES uses (Greece is EL), with their ISO country. */
const MEMBER_STATES: Readonly<Record<string, string>> = {
  AT: 'AT',
  BE: 'BE',
  BG: 'BG',
  CY: 'CY',
  CZ: 'CZ',
  DE: 'DE',
  DK: 'DK',
  EE: 'EE',
  EL: 'GR',
  ES: 'ES',
  FI: 'FI',
  FR: 'FR',
  HR: 'HR',
  HU: 'HU',
  IE: 'IE',
  IT: 'IT',
  LT: 'LT',
  LU: 'LU',
  LV: 'LV',
  MT: 'MT',
  NL: 'NL',
  PL: 'PL',
  PT: 'PT',
  RO: 'RO',
  SE: 'SE',
  SI: 'SI',
  SK: 'SK',
};

const EU_FORMATS: readonly Country[] = countries.filter((country) =>
  Object.values(MEMBER_STATES).includes(country.codes[0] ?? ''),
);

export type ParsedVatNumber =
  | {
      ok: true;
      /** Prefix and national part, no spaces or punctuation: 'DE123456789', 'EL094259216'. */
      vatNumber: string;
      /** The prefix VIES expects as `countryCode` ('EL' for Greece). */
      memberState: string;
      /** The number without its prefix, as VIES expects it in `vatNumber`. */
      nationalNumber: string;
      /** ISO 3166 country of the number ('GR' for Greece). */
      countryCode: string;
    }
  | { ok: false; vatNumber: string };

/**
 * Normalises an EU VAT number and checks its format for its member state with `jsvat`, before anything is sent.
 * Only the format counts, not jsvat's check-digit test: check digits have changed over the years (Dutch sole-trader
 * numbers since 2020, Czech individuals) and jsvat has rejected numbers that VIES confirms; VIES has the last word
 * on those. Numbers outside the EU-27 (GB, NO, CH, XI) are not VIES numbers and fail here.
 */
export function parseVatNumber(input: string): ParsedVatNumber {
  let vatNumber = input.toUpperCase().replace(/[^A-Z0-9+*]/g, '');
  if (vatNumber.startsWith('GR')) vatNumber = `EL${vatNumber.slice(2)}`; // people write GR; VIES wants EL
  const memberState = vatNumber.slice(0, 2);
  const countryCode = MEMBER_STATES[memberState];
  if (!countryCode || vatNumber.length > 16) return { ok: false, vatNumber };
  const result = checkVAT(vatNumber, EU_FORMATS);
  if (!result.isSupportedCountry || !result.isValidFormat || result.country?.isoCode.short !== countryCode) {
    return { ok: false, vatNumber };
  }
  return { ok: true, vatNumber, memberState, nationalNumber: vatNumber.slice(2), countryCode };
}
