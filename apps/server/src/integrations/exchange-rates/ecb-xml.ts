/**
 * Reads the ECB's euro reference rate files (eurofxref-daily.xml, eurofxref-hist-90d.xml): a gesmes envelope whose
 * `Cube` elements carry a day (`time`) and, inside it, one `Cube` per currency (`currency`, `rate`). Only that shape is
 * read; anything else (an HTML error page, an empty answer) is refused.
 */

/** One published day: currency → rate per euro, as written. */
export interface EcbDay {
  date: string;
  rates: Map<string, string>;
}

const TAG = /<Cube\b([^>]*)>/g;
const ATTRIBUTE = /([A-Za-z_:][\w:.-]*)\s*=\s*(?:"([^"]*)"|'([^']*)')/g;

export class EcbFormatError extends Error {
  override name = 'EcbFormatError';
}

/** The days of a reference rate file, newest first. Throws `EcbFormatError` when it is not one. */
export function parseEcbReferenceRates(xml: string): EcbDay[] {
  if (!xml.includes('http://www.ecb.int/vocabulary/2002-08-01/eurofxref')) {
    throw new EcbFormatError('not an ECB euro reference rate file');
  }
  const days: EcbDay[] = [];
  let current: EcbDay | null = null;
  for (const [, attributeText = ''] of xml.matchAll(TAG)) {
    const attributes = new Map<string, string>();
    for (const match of attributeText.matchAll(ATTRIBUTE)) attributes.set(match[1]!, match[2] ?? match[3] ?? '');
    const time = attributes.get('time');
    if (time !== undefined) {
      if (!/^\d{4}-\d{2}-\d{2}$/.test(time)) throw new EcbFormatError(`a day is dated ${JSON.stringify(time)}`);
      current = { date: time, rates: new Map() };
      days.push(current);
      continue;
    }
    const currency = attributes.get('currency');
    const rate = attributes.get('rate');
    if (currency === undefined && rate === undefined) continue; // the outer Cube
    if (!current || !currency || !/^[A-Z]{3}$/.test(currency) || !rate || !/^\d{1,9}(\.\d{1,9})?$/.test(rate)) {
      throw new EcbFormatError('a rate outside a day, or not a currency and a decimal rate');
    }
    current.rates.set(currency, rate);
  }
  if (days.length === 0) throw new EcbFormatError('no day of rates');
  return days.sort((a, b) => (a.date < b.date ? 1 : a.date > b.date ? -1 : 0));
}
