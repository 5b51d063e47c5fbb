import { parseEcbReferenceRates, type EcbDay } from './ecb-xml';
import { ExchangeRateUnavailableError, type EurReferenceRate, type ExchangeRates } from './port';
import { latestPublicationDate } from './publication-day';

export const ECB_SOURCE = 'ECB euro foreign exchange reference rate';

export interface EcbAdapterOptions {
  /** The folder of the rate files: https://www.ecb.europa.eu/stats/eurofxref (a local fake in tests). */
  baseUrl: string;
  /** The whole call, connection to body. */
  timeoutMs: number;
  now?: () => Date;
}

/** A daily file is trusted for this long, and only while no later publication can have happened since. */
const DAILY_TTL_MS = 10 * 60_000;
const HISTORY_TTL_MS = 60 * 60_000;
/** After a failure, calls fail at once for this long instead of waiting on a service that is down. */
const FAILURE_PAUSE_MS = 60_000;

interface Cached {
  days: EcbDay[];
  fetchedAt: number;
}

/**
 * The ECB's published euro reference rates (ADR 036): the daily file, and the 90-day history for an instant the daily
 * file has moved past (an invoice completed later). The rate in force at an instant is the latest one dated on or
 * before `latestPublicationDate(at)`; no rate is ever guessed or carried over from another currency.
 */
export function createEcbExchangeRates(options: EcbAdapterOptions): ExchangeRates {
  const now = options.now ?? (() => new Date());
  const base = options.baseUrl.replace(/\/+$/, '');
  let daily: Cached | null = null;
  let history: Cached | null = null;
  let failedAt: number | null = null;

  async function load(file: string): Promise<EcbDay[]> {
    if (failedAt !== null && now().getTime() - failedAt < FAILURE_PAUSE_MS) {
      throw new ExchangeRateUnavailableError('the ECB did not answer a moment ago');
    }
    try {
      const response = await fetch(`${base}/${file}`, {
        signal: AbortSignal.timeout(options.timeoutMs),
        headers: { accept: 'application/xml, text/xml' },
      });
      if (!response.ok) throw new ExchangeRateUnavailableError(`the ECB answered ${response.status} for ${file}`);
      const days = parseEcbReferenceRates(await response.text());
      failedAt = null;
      return days;
    } catch (error) {
      failedAt = now().getTime();
      if (error instanceof ExchangeRateUnavailableError) throw error;
      throw new ExchangeRateUnavailableError(`${file}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  async function dailyFile(at: number): Promise<EcbDay[]> {
    const fresh =
      daily &&
      at - daily.fetchedAt < DAILY_TTL_MS &&
      latestPublicationDate(new Date(daily.fetchedAt)) === latestPublicationDate(new Date(at));
    if (!fresh) daily = { days: await load('eurofxref-daily.xml'), fetchedAt: at };
    return daily!.days;
  }

  async function historyFile(at: number): Promise<EcbDay[]> {
    if (!history || at - history.fetchedAt >= HISTORY_TTL_MS) {
      history = { days: await load('eurofxref-hist-90d.xml'), fetchedAt: at };
    }
    return history.days;
  }

  return {
    name: 'ecb',
    async eurRateAt(currency: string, at: Date): Promise<EurReferenceRate> {
      const code = currency.toUpperCase();
      const latest = latestPublicationDate(at);
      const current = now().getTime();
      const [newest] = await dailyFile(current);
      // The daily file holds the newest publication: when it is not after the bound, it is the rate in force.
      let days = newest && newest.date <= latest ? [newest] : await historyFile(current);
      days = days.filter((day) => day.date <= latest && day.rates.has(code));
      const day = days[0];
      if (!day) throw new ExchangeRateUnavailableError(`no ECB rate for ${code} on or before ${latest}`);
      return { currency: code, perEur: day.rates.get(code)!, date: day.date, source: ECB_SOURCE };
    },
  };
}
