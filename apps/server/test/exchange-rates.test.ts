/**
 * The exchange-rate port (issue 19, ADR 036): the ECB adapter against a local fake of www.ecb.europa.eu's rate files
 * (weekends, TARGET holidays, the 16:00 CET publication, the service down, a currency it does not publish), the
 * file reader, the publication calendar and the sandbox's fixed rates.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config';
import { createEcbExchangeRates, ECB_SOURCE } from '../src/integrations/exchange-rates/ecb-adapter';
import { EcbFormatError, parseEcbReferenceRates } from '../src/integrations/exchange-rates/ecb-xml';
import { createExchangeRates } from '../src/integrations/exchange-rates/create-exchange-rates';
import { ExchangeRateUnavailableError } from '../src/integrations/exchange-rates/port';
import {
  easterSunday,
  isTargetWorkingDay,
  latestPublicationDate,
  targetWorkingDayOnOrBefore,
} from '../src/integrations/exchange-rates/publication-day';
import { createSandboxExchangeRates, SANDBOX_SOURCE } from '../src/integrations/exchange-rates/sandbox-adapter';
import { ecbXml, startFakeEcbRates, type FakeEcbRates } from './fakes/ecb-rates';

describe('the ECB rate file', () => {
  it('reads every day and currency, newest first', () => {
    const days = parseEcbReferenceRates(
      ecbXml([
        { date: '2026-11-24', rates: { USD: '1.0512', JPY: '162.12' } },
        { date: '2026-11-25', rates: { USD: '1.0530', GBP: '0.83710' } },
      ]),
    );
    expect(days.map((day) => day.date)).toEqual(['2026-11-25', '2026-11-24']);
    expect(days[0]!.rates.get('GBP')).toBe('0.83710');
    expect(days[1]!.rates.get('JPY')).toBe('162.12');
  });

  it('reads double-quoted attributes in any order', () => {
    const xml = `<gesmes:Envelope xmlns="http://www.ecb.int/vocabulary/2002-08-01/eurofxref"><Cube><Cube time="2026-11-25"><Cube rate="1.05" currency="USD"/></Cube></Cube></gesmes:Envelope>`;
    expect(parseEcbReferenceRates(xml)[0]!.rates.get('USD')).toBe('1.05');
  });

  it.each([
    ['an HTML error page', '<html><body>Service unavailable</body></html>'],
    ['an envelope without days', ecbXml([])],
    ['a rate that is not a decimal', ecbXml([{ date: '2026-11-25', rates: { USD: '1,05' } }])],
    ['a day that is not a date', ecbXml([{ date: 'yesterday', rates: { USD: '1.05' } }])],
  ])('refuses %s', (_label, xml) => {
    expect(() => parseEcbReferenceRates(xml)).toThrow(EcbFormatError);
  });
});

describe('when a rate is published', () => {
  it.each([
    // Winter: CET is UTC+1, 16:00 CET is 15:00 UTC.
    ['2026-11-26T14:59:59Z', '2026-11-25'],
    ['2026-11-26T15:00:00Z', '2026-11-26'],
    // Summer: CEST is UTC+2, 16:00 CEST is 14:00 UTC.
    ['2025-07-01T13:59:00Z', '2025-06-30'],
    ['2025-07-01T14:00:00Z', '2025-07-01'],
    // Just after midnight in Frankfurt, still the evening before in UTC.
    ['2026-11-25T23:30:00Z', '2026-11-25'],
  ])('at %s the latest possible rate is dated %s', (at, date) => {
    expect(latestPublicationDate(new Date(at))).toBe(date);
  });

  it('Easter Sunday', () => {
    expect(easterSunday(2025)).toBe('2025-04-20');
    expect(easterSunday(2026)).toBe('2026-04-05');
    expect(easterSunday(2027)).toBe('2027-03-28');
  });

  it.each([
    ['2026-11-26', true], // Thursday
    ['2026-11-28', false], // Saturday
    ['2026-11-29', false], // Sunday
    ['2026-01-01', false],
    ['2026-04-03', false], // Good Friday
    ['2026-04-06', false], // Easter Monday
    ['2026-05-01', false],
    ['2026-12-24', true],
    ['2026-12-25', false],
    ['2026-12-28', true],
  ])('%s is a TARGET working day: %s', (date, working) => {
    expect(isTargetWorkingDay(date)).toBe(working);
  });

  it('the working day on or before a weekend or Easter is the one before', () => {
    expect(targetWorkingDayOnOrBefore('2026-11-29')).toBe('2026-11-27');
    expect(targetWorkingDayOnOrBefore('2026-04-06')).toBe('2026-04-02');
    expect(targetWorkingDayOnOrBefore('2026-11-26')).toBe('2026-11-26');
  });
});

describe('the ECB adapter against a local fake of the ECB', () => {
  let ecb: FakeEcbRates;
  let clock = new Date('2026-11-26T16:00:00Z');
  const adapter = () => createEcbExchangeRates({ baseUrl: ecb.url, timeoutMs: 2000, now: () => clock });

  beforeAll(async () => {
    ecb = await startFakeEcbRates([
      { date: '2026-04-02', rates: { USD: '1.0811' } }, // Thursday before Easter
      { date: '2026-04-07', rates: { USD: '1.0899' } }, // Tuesday after
      { date: '2026-11-20', rates: { USD: '1.0444' } }, // Friday
      { date: '2026-11-23', rates: { USD: '1.0461' } },
      { date: '2026-11-24', rates: { USD: '1.0512', JPY: '162.12' } },
      { date: '2026-11-25', rates: { USD: '1.0530' } },
      { date: '2026-11-26', rates: { USD: '1.0557' } },
    ]);
  });
  afterAll(() => ecb.close());

  it("after 16:00 CET on a working day: that day's rate, from the daily file", async () => {
    clock = new Date('2026-11-26T16:00:00Z');
    ecb.requests.length = 0;
    const rates = adapter();
    expect(await rates.eurRateAt('usd', clock)).toEqual({
      currency: 'USD',
      perEur: '1.0557',
      date: '2026-11-26',
      source: ECB_SOURCE,
    });
    // A second invoice minutes later reuses the file.
    clock = new Date('2026-11-26T16:05:00Z');
    await rates.eurRateAt('USD', clock);
    expect(ecb.requests).toEqual(['eurofxref-daily.xml']);
  });

  it("before 16:00 CET: the previous working day's rate (the day's own is not published yet)", async () => {
    clock = new Date('2026-11-26T10:00:00Z');
    expect(await adapter().eurRateAt('USD', clock)).toMatchObject({ perEur: '1.0530', date: '2026-11-25' });
  });

  it("on a weekend: Friday's rate", async () => {
    clock = new Date('2026-11-22T12:00:00Z'); // Sunday; the fake's newest day is later, so the history answers
    expect(await adapter().eurRateAt('USD', clock)).toMatchObject({ perEur: '1.0444', date: '2026-11-20' });
  });

  it("on Easter Monday (a TARGET holiday, after Good Friday): Thursday's rate", async () => {
    clock = new Date('2026-04-06T15:00:00Z');
    expect(await adapter().eurRateAt('USD', clock)).toMatchObject({ perEur: '1.0811', date: '2026-04-02' });
  });

  it('for an instant in the past (an invoice completed later): the rate in force then, from the history', async () => {
    clock = new Date('2026-11-26T16:30:00Z');
    expect(await adapter().eurRateAt('USD', new Date('2026-11-24T18:00:00Z'))).toMatchObject({
      perEur: '1.0512',
      date: '2026-11-24',
    });
  });

  it('a currency the ECB does not publish is unavailable, never another rate', async () => {
    clock = new Date('2026-11-26T16:00:00Z');
    await expect(adapter().eurRateAt('XAU', clock)).rejects.toThrow(ExchangeRateUnavailableError);
  });

  it('the ECB down is unavailable; for a minute after, calls fail without waiting on it again', async () => {
    clock = new Date('2026-11-26T16:00:00Z');
    const rates = adapter();
    ecb.down = true;
    ecb.requests.length = 0;
    try {
      await expect(rates.eurRateAt('USD', clock)).rejects.toThrow(/503/);
      await expect(rates.eurRateAt('USD', clock)).rejects.toThrow(ExchangeRateUnavailableError);
      expect(ecb.requests).toEqual(['eurofxref-daily.xml']);
      ecb.down = false;
      clock = new Date('2026-11-26T16:01:01Z');
      expect(await rates.eurRateAt('USD', clock)).toMatchObject({ perEur: '1.0557' });
    } finally {
      ecb.down = false;
    }
  });

  it('nothing listening is unavailable', async () => {
    const closed = await startFakeEcbRates();
    const url = closed.url;
    await closed.close();
    const rates = createEcbExchangeRates({ baseUrl: url, timeoutMs: 2000 });
    await expect(rates.eurRateAt('USD', new Date())).rejects.toThrow(ExchangeRateUnavailableError);
  });
});

describe('the sandbox and the choice between them', () => {
  it('fixed rates, dated like the ECB, labelled as sandbox rates', async () => {
    const rates = createSandboxExchangeRates();
    expect(await rates.eurRateAt('usd', new Date('2026-11-28T12:00:00Z'))).toEqual({
      currency: 'USD',
      perEur: '1.0800',
      date: '2026-11-27',
      source: SANDBOX_SOURCE,
    });
    expect((await rates.eurRateAt('USD', new Date('2026-11-26T10:00:00Z'))).date).toBe('2026-11-25');
    await expect(rates.eurRateAt('XAU', new Date())).rejects.toThrow(ExchangeRateUnavailableError);
  });

  it('EXCHANGE_RATES_ADAPTER picks the adapter; the sandbox by default', () => {
    const env = { NODE_ENV: 'test', LOG_LEVEL: 'silent' } as const;
    expect(createExchangeRates(loadConfig(env)).name).toBe('sandbox');
    expect(createExchangeRates(loadConfig({ ...env, EXCHANGE_RATES_ADAPTER: 'ecb' })).name).toBe('ecb');
    expect(() => loadConfig({ ...env, EXCHANGE_RATES_ADAPTER: 'fixer' })).toThrow(/EXCHANGE_RATES_ADAPTER/);
  });
});
