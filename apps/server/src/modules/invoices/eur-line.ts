/**
 * The EUR line of an EU buyer's invoice (VAT directive art. 230; issue 19, ADR 036): the VAT converted at the ECB
 * reference rate, exactly, in integers.
 */
import { isEuMemberState } from '@keyport/shared/domain/vat';

/** An invoice to a buyer in an EU member state, in a currency other than the euro, shows its VAT in EUR too. */
export function needsEurLine(buyerCountry: string, currency: string): boolean {
  return isEuMemberState(buyerCountry.toUpperCase()) && currency.toLowerCase() !== 'eur';
}

/**
 * `cents` of a currency in euro cents at `perEur` units per euro ('1.0800'): cents ÷ rate, rounded half up to a whole
 * cent, computed exactly (the rate's decimal digits as a fraction, never a float).
 */
export function toEurCents(cents: number, perEur: string): number {
  if (!Number.isSafeInteger(cents) || cents < 0) throw new RangeError(`cents must be a non-negative integer: ${cents}`);
  const match = /^(\d{1,9})(?:\.(\d{1,9}))?$/.exec(perEur);
  if (!match) throw new RangeError(`not a decimal rate: ${perEur}`);
  const fraction = match[2] ?? '';
  const rate = BigInt(match[1]! + fraction);
  if (rate === 0n) throw new RangeError('the rate is zero');
  const scale = 10n ** BigInt(fraction.length);
  // cents / (rate / scale) = cents · scale / rate, half up: (2 · cents · scale + rate) div (2 · rate).
  return Number((2n * BigInt(cents) * scale + rate) / (2n * rate));
}

/** 2226 → '€22.26', 123456 → '€1,234.56', -500 → '-€5.00'. */
export function formatEur(cents: number): string {
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(cents);
  const whole = String(Math.floor(abs / 100)).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return `${sign}€${whole}.${String(abs % 100).padStart(2, '0')}`;
}
