/**
 * Country names for the web without a country dataset in its bundle: the browser's own CLDR names
 * (Intl.DisplayNames). The full list a billing form offers comes from the server's GET /countries (§5). ADR 012.
 */
import type { Country } from '../contracts/billing';
import { DEFAULT_COUNTRIES } from './billing';

let regionNames: Intl.DisplayNames | null | undefined;

function displayNames(): Intl.DisplayNames | null {
  if (regionNames === undefined) {
    try {
      regionNames = new Intl.DisplayNames(['en'], { type: 'region', fallback: 'code' });
    } catch {
      regionNames = null;
    }
  }
  return regionNames;
}

/**
 * The English name of an ISO 3166-1 alpha-2 code, any case ('de' → 'Germany'). A code nobody names comes back upper
 * case ('XX'); text that is not a two-letter code comes back as it was given.
 */
export function countryName(code: string): string {
  const upper = code.trim().toUpperCase();
  if (!/^[A-Z]{2}$/.test(upper)) return code;
  const fromIntl = displayNames()?.of(upper);
  if (fromIntl && fromIntl !== upper && fromIntl !== 'Unknown Region') return fromIntl;
  return DEFAULT_COUNTRIES.find((c) => c.code === upper)?.name ?? upper;
}

/** §5 "sorted by name": a copy of the list in English alphabetical order (accents sort with their letter). */
export function sortCountriesByName(countries: readonly Country[]): Country[] {
  const collator = new Intl.Collator('en', { sensitivity: 'base' });
  return [...countries].sort((a, b) => collator.compare(a.name, b.name) || a.code.localeCompare(b.code));
}
