/**
 * A local HTTP stand-in for the ECB's euro reference rate files under /stats/eurofxref: eurofxref-daily.xml (the newest
 * published day) and eurofxref-hist-90d.xml (every day, newest first), in the ECB's gesmes XML with single-quoted
 * attributes, as www.ecb.europa.eu serves them. `days` is what the ECB has published so far; `down` answers 503.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeEcbDay {
  date: string;
  rates: Record<string, string>;
}

export interface FakeEcbRates {
  /** What ECB_RATES_URL holds: http://127.0.0.1:port/stats/eurofxref */
  url: string;
  /** Published days, any order. */
  days: FakeEcbDay[];
  /** Answer 503 with an HTML page (the service is down). */
  down: boolean;
  /** The files asked for, in order. */
  requests: string[];
  close(): Promise<void>;
}

const ROOT = '/stats/eurofxref';

export function ecbXml(days: FakeEcbDay[]): string {
  const cubes = [...days]
    .sort((a, b) => (a.date < b.date ? 1 : -1))
    .map(
      (day) =>
        `\t\t<Cube time='${day.date}'>\n${Object.entries(day.rates)
          .map(([currency, rate]) => `\t\t\t<Cube currency='${currency}' rate='${rate}'/>`)
          .join('\n')}\n\t\t</Cube>`,
    )
    .join('\n');
  return `<?xml version="1.0" encoding="UTF-8"?>
<gesmes:Envelope xmlns:gesmes="http://www.gesmes.org/xml/2002-08-01" xmlns="http://www.ecb.int/vocabulary/2002-08-01/eurofxref">
\t<gesmes:subject>Reference rates</gesmes:subject>
\t<gesmes:Sender>
\t\t<gesmes:name>European Central Bank</gesmes:name>
\t</gesmes:Sender>
\t<Cube>
${cubes}
\t</Cube>
</gesmes:Envelope>`;
}

export async function startFakeEcbRates(days: FakeEcbDay[] = []): Promise<FakeEcbRates> {
  const fake: Omit<FakeEcbRates, 'url' | 'close'> = { days, down: false, requests: [] };
  const server = http.createServer((req, res) => {
    const file = req.url?.startsWith(`${ROOT}/`) ? req.url.slice(ROOT.length + 1) : '';
    fake.requests.push(file);
    if (fake.down) {
      res.writeHead(503, { 'content-type': 'text/html' });
      res.end('<html><body>Service unavailable</body></html>');
      return;
    }
    const sorted = [...fake.days].sort((a, b) => (a.date < b.date ? 1 : -1));
    const body =
      file === 'eurofxref-daily.xml'
        ? ecbXml(sorted.slice(0, 1))
        : file === 'eurofxref-hist-90d.xml'
          ? ecbXml(sorted)
          : null;
    if (req.method !== 'GET' || body === null) {
      res.writeHead(404, { 'content-type': 'text/html' });
      res.end('<html><body>Not found</body></html>');
      return;
    }
    res.writeHead(200, { 'content-type': 'text/xml' });
    res.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return Object.assign(fake, {
    url: `http://127.0.0.1:${port}${ROOT}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }) as FakeEcbRates;
}
