/**
 * A local HTTP stand-in for the VIES REST service's `POST /check-vat-number`, answering the way VIES does: a JSON
 * record with `valid`, `name`, `address` ('---' when the member state does not share them) and a `requestIdentifier`
 * when a requester was given; trouble as `{actionSucceed: false, errorWrappers: [{error}]}` or as `userError`.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export type FakeViesBehaviour =
  | { kind: 'registered'; name: string; address: string }
  | { kind: 'not_registered' }
  /** `{actionSucceed: false, errorWrappers: [{error}]}` with this HTTP status. */
  | { kind: 'error'; error: string; httpStatus: number }
  /** A 200 record whose `userError` is this code (and `valid: false`). */
  | { kind: 'user_error'; userError: string }
  /** A plain-text (not JSON) answer with this status. */
  | { kind: 'broken'; httpStatus: number }
  /** Answers only after this many milliseconds. */
  | { kind: 'slow'; delayMs: number };

export interface FakeViesRequest {
  path: string;
  body: Record<string, unknown>;
}

export interface FakeViesApi {
  /** The API root (what VIES_API_URL holds), e.g. http://127.0.0.1:1234/taxation_customs/vies/rest-api */
  url: string;
  /** By full number ('DE123456789'); numbers not listed are `not_registered`. */
  numbers: Map<string, FakeViesBehaviour>;
  requests: FakeViesRequest[];
  close(): Promise<void>;
}

const ROOT = '/taxation_customs/vies/rest-api';

export async function startFakeViesApi(): Promise<FakeViesApi> {
  const numbers = new Map<string, FakeViesBehaviour>();
  const requests: FakeViesRequest[] = [];
  const timers = new Set<NodeJS.Timeout>();
  let counter = 0;

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const json = (status: number, body: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(body));
      };
      if (req.method !== 'POST' || req.url !== `${ROOT}/check-vat-number`) {
        json(404, { actionSucceed: false, errorWrappers: [{ error: 'NOT_FOUND' }] });
        return;
      }
      let body: Record<string, unknown>;
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>;
      } catch {
        json(400, { actionSucceed: false, errorWrappers: [{ error: 'INVALID_INPUT' }] });
        return;
      }
      requests.push({ path: req.url, body });
      const countryCode = String(body.countryCode ?? '');
      const vatNumber = String(body.vatNumber ?? '');
      if (!/^[A-Z]{2}$/.test(countryCode) || !/^[0-9A-Z+*]{2,14}$/.test(vatNumber)) {
        json(400, { actionSucceed: false, errorWrappers: [{ error: 'INVALID_INPUT' }] });
        return;
      }
      const behaviour = numbers.get(`${countryCode}${vatNumber}`) ?? { kind: 'not_registered' };
      const withRequester =
        typeof body.requesterMemberStateCode === 'string' && typeof body.requesterNumber === 'string';
      const record = (valid: boolean, name: string, address: string, extra: Record<string, unknown> = {}) => ({
        countryCode,
        vatNumber,
        requestDate: new Date().toISOString(),
        valid,
        requestIdentifier: withRequester ? `WAPIAAAAZ${String(++counter).padStart(7, '0')}` : '',
        name,
        address,
        traderName: '---',
        traderStreet: '---',
        traderPostalCode: '---',
        traderCity: '---',
        traderCompanyType: '---',
        traderNameMatch: 'NOT_PROCESSED',
        traderStreetMatch: 'NOT_PROCESSED',
        traderPostalCodeMatch: 'NOT_PROCESSED',
        traderCityMatch: 'NOT_PROCESSED',
        traderCompanyTypeMatch: 'NOT_PROCESSED',
        ...extra,
      });
      switch (behaviour.kind) {
        case 'registered':
          json(200, record(true, behaviour.name, behaviour.address));
          return;
        case 'not_registered':
          json(200, record(false, '---', '---'));
          return;
        case 'error':
          json(behaviour.httpStatus, { actionSucceed: false, errorWrappers: [{ error: behaviour.error }] });
          return;
        case 'user_error':
          json(200, record(false, '---', '---', { userError: behaviour.userError }));
          return;
        case 'broken':
          res.writeHead(behaviour.httpStatus, { 'content-type': 'text/html' });
          res.end('<html><body>Service Unavailable</body></html>');
          return;
        case 'slow':
          timers.add(
            setTimeout(() => {
              if (!res.destroyed) json(200, record(true, 'Too late GmbH', '---'));
            }, behaviour.delayMs),
          );
          return;
      }
    });
  });

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}${ROOT}`,
    numbers,
    requests,
    close: () =>
      new Promise<void>((resolve, reject) => {
        timers.forEach((timer) => clearTimeout(timer));
        server.closeAllConnections();
        server.close((err) => (err ? reject(err) : resolve()));
      }),
  };
}
