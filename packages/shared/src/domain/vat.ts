/**
 * §9 "VAT rates by country" and reverse charge; §4/§5/§8 VAT-number rules and texts. Amounts are integer cents,
 * rates integer basis points (1900 = 19%, 770 = 7.7%). ADR 012; rates with start dates and the seller's own country:
 * ADR 036.
 */
import { VAT_MIN_LENGTH, VAT_VERIFY_DEBOUNCE_MS as DEBOUNCE_MS } from './constants';

/** The 27 EU member states (ISO 3166-1 alpha-2; Greece is GR here, EL in VAT numbers). Not GB, NO or CH. */
export const EU_MEMBER_STATES = [
  'AT',
  'BE',
  'BG',
  'CY',
  'CZ',
  'DE',
  'DK',
  'EE',
  'ES',
  'FI',
  'FR',
  'GR',
  'HR',
  'HU',
  'IE',
  'IT',
  'LT',
  'LU',
  'LV',
  'MT',
  'NL',
  'PL',
  'PT',
  'RO',
  'SE',
  'SI',
  'SK',
] as const;
export type EuMemberState = (typeof EU_MEMBER_STATES)[number];

export function isEuMemberState(country: string): country is EuMemberState {
  return (EU_MEMBER_STATES as readonly string[]).includes(country);
}

/**
 * §9's table as the spec writes it, country → basis points: the baseline of the dated rate table below (the rate of
 * a country before any of its dated changes). Every country not listed pays 0%.
 */
export const VAT_RATES_BP: Readonly<Record<string, number>> = Object.freeze({
  LU: 1700,
  MT: 1800,
  IN: 1800,
  CY: 1900,
  DE: 1900,
  RO: 1900,
  AT: 2000,
  BG: 2000,
  EE: 2000,
  FR: 2000,
  SK: 2000,
  GB: 2000,
  BE: 2100,
  CZ: 2100,
  ES: 2100,
  LT: 2100,
  LV: 2100,
  NL: 2100,
  IT: 2200,
  SI: 2200,
  IE: 2300,
  PL: 2300,
  PT: 2300,
  FI: 2400,
  GR: 2400,
  DK: 2500,
  HR: 2500,
  SE: 2500,
  NO: 2500,
  HU: 2700,
  CH: 770,
  AU: 1000,
  CA: 500,
  NZ: 1500,
  ZA: 1500,
  SG: 700,
  MY: 600,
});

function normalizeCountry(country: string): string {
  return country.trim().toUpperCase();
}

/** The §9 (baseline) rate of a billing country (any case), 0 for every country the table does not list. */
export function vatRateBp(country: string): number {
  const code = normalizeCountry(country);
  return Object.hasOwn(VAT_RATES_BP, code) ? (VAT_RATES_BP[code] ?? 0) : 0;
}

/**
 * One row of a dated rate table: from `from` (an ISO date, 'YYYY-MM-DD', inclusive) the country's standard rate is
 * `rateBp`, until a row of the same country with a later start. `from` null is the §9 baseline (in force before every
 * dated row).
 */
export interface VatRateEntry {
  country: string;
  rateBp: number;
  from: string | null;
}
export type VatRateTable = readonly VatRateEntry[];

/**
 * Standard rates that changed since the spec's table was written, with the day each took effect (ADR 036 cites the
 * sources: the European Commission's TEDB as republished by vatnode/eu-vat-rates-data, and the national authorities
 * for CH, SG and MY). Staff add later changes in the console; they are data, not code.
 */
export const VAT_RATE_CHANGES: VatRateTable = Object.freeze([
  { country: 'LU', rateBp: 1600, from: '2023-01-01' },
  { country: 'LU', rateBp: 1700, from: '2024-01-01' },
  { country: 'EE', rateBp: 2200, from: '2024-01-01' },
  { country: 'EE', rateBp: 2400, from: '2025-07-01' },
  { country: 'FI', rateBp: 2550, from: '2024-09-01' },
  { country: 'SK', rateBp: 2300, from: '2025-01-01' },
  { country: 'RO', rateBp: 2100, from: '2025-08-01' },
  { country: 'CH', rateBp: 810, from: '2024-01-01' },
  { country: 'SG', rateBp: 800, from: '2023-01-01' },
  { country: 'SG', rateBp: 900, from: '2024-01-01' },
  { country: 'MY', rateBp: 800, from: '2024-03-01' },
]);

/** The §9 baseline followed by the dated changes: what applies without any rate staff added. */
export const DEFAULT_VAT_RATE_TABLE: VatRateTable = Object.freeze([
  ...Object.entries(VAT_RATES_BP).map(([country, rateBp]) => ({ country, rateBp, from: null })),
  ...VAT_RATE_CHANGES,
]);

const ISO_DATE = /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/;

/** Whether `text` is a calendar date written 'YYYY-MM-DD' (2025-02-30 is not). */
export function isIsoDate(text: string): boolean {
  if (!ISO_DATE.test(text)) return false;
  const date = new Date(`${text}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === text;
}

/** The UTC calendar date of an instant, 'YYYY-MM-DD': the date a quote is made on. */
export function utcDate(at: Date): string {
  return at.toISOString().slice(0, 10);
}

/**
 * The row in force in `country` on `date` ('YYYY-MM-DD'): the row of that country with the latest start on or before
 * the date (the baseline when none has started); between two rows with the same start the later one in the table
 * wins (a correction staff entered afterwards). Null for a country the table does not list.
 */
export function vatRateEntryOn(table: VatRateTable, country: string, date: string): VatRateEntry | null {
  if (!isIsoDate(date)) throw new RangeError(`date must be an ISO date (YYYY-MM-DD), got ${date}`);
  const code = normalizeCountry(country);
  let best: VatRateEntry | null = null;
  for (const entry of table) {
    if (entry.country !== code) continue;
    if (entry.from !== null && entry.from > date) continue;
    if (best === null || (entry.from ?? '') >= (best.from ?? '')) best = entry;
  }
  return best;
}

/** The rate in force in `country` on `date` (see `vatRateEntryOn`); 0 for a country the table does not list. */
export function vatRateBpOn(table: VatRateTable, country: string, date: string): number {
  return vatRateEntryOn(table, country, date)?.rateBp ?? 0;
}

/** The contract's `vat_rate` (percent: 19, 7.7) from basis points. A display figure, never used for money. */
export function vatRatePercent(rateBp: number): number {
  return rateBp / 100;
}

/** Back from the contract's percent (the server's answer) to basis points; null if it is not a rate. */
export function vatRateBpFromPercent(percent: number): number | null {
  if (!Number.isFinite(percent) || percent < 0 || percent > 100) return null;
  return Math.round(percent * 100);
}

/** §9 / §2 dialog 4: what the order summary shows instead of VAT for a reverse-charged business. */
export const REVERSE_CHARGE_LABEL = 'Reverse Charge';

/** §5 and §8 VAT-number texts. */
export const VAT_MESSAGES = {
  required: 'Please enter a VAT number',
  invalid: 'VAT number is not valid',
  verifyFailed: 'Failed to verify VAT number. Please try again.',
} as const;

/** §4/§9: verification starts once the ID has at least 8 characters… */
export const VAT_VERIFY_MIN_LENGTH = VAT_MIN_LENGTH;
/** …1 second after typing pauses. */
export const VAT_VERIFY_DEBOUNCE_MS = DEBOUNCE_MS;

/** §3 "VAT check result" status; §4: any edit returns it to idle. */
export type VatCheckStatus = 'idle' | 'verifying' | 'valid' | 'invalid' | 'error';

/** Upper case without spaces, dots or dashes: 'de 123.456-789' → 'DE123456789'. Greece keeps VIES's 'EL'. */
export function normalizeVatId(raw: string): string {
  return raw.replace(/[\s.-]/g, '').toUpperCase();
}

/** §4: whether the typed ID is long enough to start verification (counted after normalising). */
export function shouldVerifyVatId(raw: string): boolean {
  return normalizeVatId(raw).length >= VAT_VERIFY_MIN_LENGTH;
}

/**
 * A VAT number's prefix is its country's ISO code except Greece, whose numbers start with EL; a 'GR' prefix is
 * therefore no country. Other prefixes (GB, NO, CH, XI, …) are returned as they are, so callers can see they are not
 * EU member states.
 */
const VAT_PREFIX_COUNTRY: Readonly<Record<string, string | null>> = { EL: 'GR', GR: null };

/**
 * The country a VAT number claims (its two-letter prefix), or null when it does not look like one: letters, then 2–14
 * letters, digits, '+' or '*'. 'EL…' → 'GR'. The format of the rest is checked by the server (jsvat, VIES).
 */
export function vatIdCountry(vatId: string): string | null {
  const match = /^([A-Z]{2})[0-9A-Z+*]{2,14}$/.exec(normalizeVatId(vatId));
  const prefix = match?.[1];
  if (prefix === undefined) return null;
  return Object.hasOwn(VAT_PREFIX_COUNTRY, prefix) ? (VAT_PREFIX_COUNTRY[prefix] ?? null) : prefix;
}

/** Whether the VAT number belongs to the billing country ('EL…' belongs to GR). */
export function vatIdMatchesCountry(vatId: string, country: string): boolean {
  const claimed = vatIdCountry(vatId);
  return claimed !== null && claimed === normalizeCountry(country);
}

export interface VatInput {
  /** The net price in cents (a non-negative integer). */
  amountCents: number;
  /** The billing country (ISO 3166-1 alpha-2, any case). */
  country: string;
  isBusiness: boolean;
  /** The day of the quote ('YYYY-MM-DD', UTC): the rate in force that day applies. */
  date: string;
  /** The dated rates (DEFAULT_VAT_RATE_TABLE, plus the rates staff added on the server). */
  rates: VatRateTable;
  /**
   * The seller's own country (ISO code), when configured: a business there is never reverse charged (a domestic
   * supply: the seller charges its own VAT).
   */
  sellerCountry?: string | null;
  /**
   * The business's VAT number. The browser passes what was typed (a preview); the server passes it only once VIES
   * confirmed it, so the server's answer is the one that counts (§9).
   */
  vatId: string | null | undefined;
}

export interface VatCalculation {
  baseCents: number;
  vatCents: number;
  totalCents: number;
  /** The rate applied: the rate in force on the date, 0 when reverse charged or for countries outside the table. */
  rateBp: number;
  reverseCharge: boolean;
}

/**
 * §9 reverse charge: a business whose VAT number belongs to the billing country, and that country is one of the 27 EU
 * member states — but not the seller's own country (a domestic business pays VAT).
 */
export function reverseChargeApplies(
  input: Pick<VatInput, 'country' | 'isBusiness' | 'vatId' | 'sellerCountry'>,
): boolean {
  if (!input.isBusiness || !input.vatId) return false;
  const country = normalizeCountry(input.country);
  if (input.sellerCountry && normalizeCountry(input.sellerCountry) === country) return false;
  return isEuMemberState(country) && vatIdMatchesCountry(input.vatId, country);
}

/** VAT in cents: amount × rate, rounded half up to a whole cent (19% of 50¢ = 9.5¢ → 10¢), exactly in integers. */
export function vatCentsFor(amountCents: number, rateBp: number): number {
  if (!Number.isSafeInteger(amountCents) || amountCents < 0) {
    throw new RangeError(`amountCents must be a non-negative integer, got ${amountCents}`);
  }
  if (!Number.isSafeInteger(rateBp) || rateBp < 0) {
    throw new RangeError(`rateBp must be a non-negative integer, got ${rateBp}`);
  }
  return Number((BigInt(amountCents) * BigInt(rateBp) + 5000n) / 10000n);
}

/** One calculation for the browser's summary, the server's /stripe/vat/calculate and the order. */
export function calculateVat(input: VatInput): VatCalculation {
  const reverseCharge = reverseChargeApplies(input);
  const rateBp = reverseCharge ? 0 : vatRateBpOn(input.rates, input.country, input.date);
  const vatCents = vatCentsFor(input.amountCents, rateBp);
  const totalCents = input.amountCents + vatCents;
  if (!Number.isSafeInteger(totalCents)) throw new RangeError(`the total of ${input.amountCents} is too large`);
  return { baseCents: input.amountCents, vatCents, totalCents, rateBp, reverseCharge };
}
