/**
 * A local HTTP stand-in for the two Klaviyo APIs Keyport uses: `POST /api/events` (202, no body) and
 * `POST /api/profile-import` (201/200 with the profile), with Klaviyo's checks: the `Klaviyo-API-Key` authorization,
 * a `revision` header, JSON:API content type and body shape (`{errors: [...]}` answers otherwise), and its dedupe of
 * events on (profile, metric, unique_id). It can be switched down (503), made to hang, or to refuse with 429.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeKlaviyoEvent {
  email: string;
  metric: string;
  uniqueId: string | null;
  properties: Record<string, unknown>;
  value: number | null;
  time: string;
}

export interface FakeKlaviyoRequest {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  body: unknown;
}

export type FakeKlaviyoMode = 'up' | 'down' | 'hang' | 'throttle';

export interface FakeKlaviyoApi {
  url: string;
  privateKey: string;
  /** Every request that reached the fake, in order (also while it is down). */
  requests: FakeKlaviyoRequest[];
  /** Events Klaviyo would keep (after its unique_id dedupe). */
  events: FakeKlaviyoEvent[];
  profiles: Record<string, unknown>[];
  setMode(mode: FakeKlaviyoMode): void;
  close(): Promise<void>;
}

const errors = (status: number, code: string, detail: string) => ({
  errors: [{ id: 'fake', status, code, title: code, detail, source: { pointer: '/data' } }],
});

export async function startFakeKlaviyoApi(privateKey = 'pk_fake_keyport_private_key'): Promise<FakeKlaviyoApi> {
  const requests: FakeKlaviyoRequest[] = [];
  const events: FakeKlaviyoEvent[] = [];
  const profiles: Record<string, unknown>[] = [];
  const seen = new Set<string>();
  const hanging = new Set<http.ServerResponse>();
  let mode: FakeKlaviyoMode = 'up';

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const json = (status: number, body?: unknown) => {
        res.writeHead(status, body === undefined ? {} : { 'content-type': 'application/vnd.api+json' });
        res.end(body === undefined ? undefined : JSON.stringify(body));
      };
      let body: unknown = null;
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      } catch {
        body = null;
      }
      requests.push({ method: req.method ?? '', path: req.url ?? '', headers: req.headers, body });
      if (mode === 'hang') {
        hanging.add(res);
        res.on('close', () => hanging.delete(res));
        return;
      }
      if (mode === 'down') return json(503, errors(503, 'service_unavailable', 'Down for maintenance.'));
      if (mode === 'throttle') return json(429, errors(429, 'throttled', 'Request was throttled.'));
      if (req.headers.authorization !== `Klaviyo-API-Key ${privateKey}`) {
        return json(401, errors(401, 'not_authenticated', 'Missing or invalid private key.'));
      }
      if (!/^\d{4}-\d{2}-\d{2}(\.\w+)?$/.test(String(req.headers.revision ?? ''))) {
        return json(400, errors(400, 'invalid', 'The revision header is required.'));
      }
      if (!String(req.headers['content-type'] ?? '').startsWith('application/vnd.api+json')) {
        return json(415, errors(415, 'unsupported_media_type', 'Use application/vnd.api+json.'));
      }
      const data = (body as { data?: { type?: string; attributes?: Record<string, unknown> } } | null)?.data;
      const attributes = data?.attributes;
      if (req.method === 'POST' && req.url === '/api/events') {
        const metric = (attributes?.metric as { data?: { attributes?: { name?: unknown } } } | undefined)?.data
          ?.attributes?.name;
        const email = (attributes?.profile as { data?: { attributes?: { email?: unknown } } } | undefined)?.data
          ?.attributes?.email;
        if (data?.type !== 'event' || typeof metric !== 'string' || typeof email !== 'string') {
          return json(400, errors(400, 'invalid', 'One of `attributes`, `relationships` or `id` must be included.'));
        }
        if (typeof attributes?.properties !== 'object' || attributes.properties === null) {
          return json(400, errors(400, 'invalid', 'properties is required.'));
        }
        const uniqueId = typeof attributes.unique_id === 'string' ? attributes.unique_id : null;
        const dedupeKey = uniqueId ? `${email}\n${metric}\n${uniqueId}` : null;
        if (!dedupeKey || !seen.has(dedupeKey)) {
          if (dedupeKey) seen.add(dedupeKey);
          events.push({
            email,
            metric,
            uniqueId,
            properties: attributes.properties as Record<string, unknown>,
            value: typeof attributes.value === 'number' ? attributes.value : null,
            time: String(attributes.time ?? ''),
          });
        }
        return json(202);
      }
      if (req.method === 'POST' && req.url === '/api/profile-import') {
        if (data?.type !== 'profile' || typeof attributes?.email !== 'string') {
          return json(400, errors(400, 'invalid', 'A profile needs an email, a phone number or an external id.'));
        }
        profiles.push(attributes);
        return json(201, { data: { type: 'profile', id: `fake-${profiles.length}`, attributes } });
      }
      return json(404, errors(404, 'not_found', 'Not found.'));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    privateKey,
    requests,
    events,
    profiles,
    setMode(next) {
      mode = next;
      if (next !== 'hang') for (const res of hanging) res.destroy();
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const res of hanging) res.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
