import { ExchangeRateUnavailableError, type EurReferenceRate, type ExchangeRates } from './port';
import { latestPublicationDate, targetWorkingDayOnOrBefore } from './publication-day';

export const SANDBOX_SOURCE = 'Sandbox fixed rate (not an ECB rate)';

/** Fixed units per euro: the same every day, so amounts in tests and demos are predictable. */
export const SANDBOX_RATES: Readonly<Record<string, string>> = Object.freeze({
  USD: '1.0800',
  GBP: '0.85000',
  CHF: '0.9400',
  JPY: '160.00',
});

/**
 * The offline stand-in for the ECB (ADR 036): fixed rates, dated like the ECB's (the latest TARGET working day whose
 * 16:00 CET publication has passed), and labelled as sandbox rates on the invoice.
 */
export function createSandboxExchangeRates(): ExchangeRates {
  return {
    name: 'sandbox',
    async eurRateAt(currency: string, at: Date): Promise<EurReferenceRate> {
      const code = currency.toUpperCase();
      const perEur = Object.hasOwn(SANDBOX_RATES, code) ? SANDBOX_RATES[code] : undefined;
      if (!perEur) throw new ExchangeRateUnavailableError(`the sandbox has no rate for ${code}`);
      return {
        currency: code,
        perEur,
        date: targetWorkingDayOnOrBefore(latestPublicationDate(at)),
        source: SANDBOX_SOURCE,
      };
    },
  };
}
