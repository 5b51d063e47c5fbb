/**
 * Euro reference exchange rates (issue 19, ADR 036): an EU invoice shows its VAT in EUR at the ECB reference rate of
 * its date (VAT directive art. 230 and 91(2)). The invoices module sees only this port.
 */

/** One currency's euro reference rate: `perEur` units of `currency` are one euro ('1.0832' USD), as published. */
export interface EurReferenceRate {
  /** ISO 4217, upper case: 'USD'. */
  currency: string;
  /** A decimal string exactly as published (never a float): '1.0832', '162.12'. */
  perEur: string;
  /** The rate's own date, 'YYYY-MM-DD' (a TARGET working day for the ECB). */
  date: string;
  /** Who published it, as the invoice prints it. */
  source: string;
}

export interface ExchangeRates {
  readonly name: 'ecb' | 'sandbox';
  /**
   * The reference rate in force at `at`: the latest one published by then (the ECB publishes each TARGET working day
   * at about 16:00 CET; on a weekend or holiday, or before 16:00, that is an earlier day's). Throws
   * `ExchangeRateUnavailableError` when it cannot be had (service down, no rate for the currency).
   */
  eurRateAt(currency: string, at: Date): Promise<EurReferenceRate>;
}

export class ExchangeRateUnavailableError extends Error {
  override name = 'ExchangeRateUnavailableError';
}
