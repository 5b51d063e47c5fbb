import { PassThrough } from 'node:stream';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { auth, createTestApp, signUp, type TestApp } from './helpers/test-app';

// Issue 22: one access-log line per request, when it is over, with what the two lines used to carry.
interface Line {
  msg?: string;
  reqId?: string;
  level: number;
  req?: { method: string; url: string; remoteAddress: string };
  res?: { statusCode: number };
  responseTime?: number;
}
const lines: Line[] = [];
/** The same lines as written. */
const raw: string[] = [];
let t: TestApp;

beforeAll(async () => {
  const destination = new PassThrough();
  destination.on('data', (chunk: Buffer) => {
    for (const line of chunk.toString('utf8').split('\n')) {
      if (!line.trim()) continue;
      raw.push(line);
      lines.push(JSON.parse(line) as Line);
    }
  });
  t = await createTestApp({ LOG_LEVEL: 'info' }, {}, destination);
});

describe('the access log', () => {
  it('writes one line per request: method, path without the query, address, status and time', async () => {
    const { token } = await signUp(t, 'access-log@example.com');
    const before = lines.length;
    const response = await t.app.inject({
      method: 'GET',
      url: '/keys/?secret=reset-token-value',
      headers: auth(token),
      remoteAddress: '203.0.113.9',
    });
    expect(response.statusCode).toBe(200);
    const refused = await t.app.inject({ method: 'GET', url: '/keys/', remoteAddress: '203.0.113.9' });
    expect(refused.statusCode).toBe(401);

    await vi.waitFor(() => expect(lines.length - before).toBeGreaterThanOrEqual(2), { timeout: 5_000, interval: 10 });
    const written = lines.slice(before);
    expect(written.map((line) => line.msg)).toEqual(['request completed', 'request completed']);
    expect(new Set(written.map((line) => line.reqId)).size).toBe(2);
    expect(written[0]).toMatchObject({
      level: 30,
      req: { method: 'GET', url: '/keys/', remoteAddress: '203.0.113.9' },
      res: { statusCode: 200 },
    });
    expect(typeof written[0]!.responseTime).toBe('number');
    expect(written[1]).toMatchObject({ req: { method: 'GET', url: '/keys/' }, res: { statusCode: 401 } });
    expect(JSON.stringify(written)).not.toContain('reset-token-value');
    expect(lines.some((line) => line.msg === 'incoming request')).toBe(false);
  });

  it("is the line the app's pino logger writes for the same request, byte for byte (ADR 047: it is built by hand)", async () => {
    const before = raw.length;
    const response = await t.app.inject({ method: 'GET', url: '/health?probe=1', remoteAddress: '198.51.100.7' });
    expect(response.statusCode).toBe(200);
    await vi.waitFor(() => expect(raw.length).toBeGreaterThan(before), { timeout: 5_000, interval: 10 });
    const line = raw.slice(before).find((text) => text.includes('"request completed"'))!;
    const written = JSON.parse(line) as { time: number; reqId: string; responseTime: number };
    // The app's own logger (its level, bindings, serializers, redaction, any formatter) writing Fastify's line.
    const original = Date.now;
    const count = raw.length;
    Date.now = () => written.time;
    try {
      t.app.log.child({ reqId: written.reqId }).info(
        {
          req: { method: 'GET', url: '/health?probe=1', ip: '198.51.100.7' },
          res: { statusCode: 200 },
          responseTime: written.responseTime,
        },
        'request completed',
      );
    } finally {
      Date.now = original;
    }
    await vi.waitFor(() => expect(raw.length).toBeGreaterThan(count), { timeout: 5_000, interval: 10 });
    const pinos = raw.slice(count).filter((text) => text.includes(`"reqId":"${written.reqId}"`));
    expect(pinos).toEqual([line]);
  });
});
