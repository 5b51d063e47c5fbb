import http from 'node:http';
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { auth, createTestApp, type TestApp } from './helpers/test-app';
import {
  claimNewKey,
  getReleaseLink,
  issueThemeToken,
  makeThemeZip,
  newCustomer,
  newStaff,
  uploadRelease,
  useDataDir,
} from './helpers/releases';

/**
 * The download routes stream over a real socket here (inject never aborts): every download, finished or cut off by
 * the client, is answered once and logs no warning or error.
 */
const dataDir = useDataDir('download-logs');
const lines: { level: number; msg?: string; reqId?: string; raw: string }[] = [];
let t: TestApp;
let base: string;
let session: string;
let themeToken: string;
let link: string;

beforeAll(async () => {
  const destination = new PassThrough();
  destination.on('data', (chunk: Buffer) => {
    for (const raw of chunk.toString('utf8').split('\n').filter(Boolean)) {
      lines.push({ ...(JSON.parse(raw) as { level: number; msg?: string; reqId?: string }), raw });
    }
  });
  t = await createTestApp({ LOG_LEVEL: 'info', DATA_DIR: dataDir(), HOST: '127.0.0.1' }, {}, destination);
  const staff = await newStaff(t);
  // Large enough that a download is still streaming when the client hangs up after its first chunk.
  const zip = await makeThemeZip(dataDir(), { edition: 'PRO', paddingBytes: 4 * 1024 * 1024 });
  const uploaded = await uploadRelease(t, staff.token, { edition: 'PRO', version: '4.2.0' }, { content: zip.bytes });
  expect(uploaded.statusCode).toBe(201);
  const customer = await newCustomer(t, 'streaming');
  session = customer.token;
  const key = await claimNewKey(t, session, 'PRO');
  themeToken = await issueThemeToken(t, session, key.apiKey);
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = t.app.server.address() as { port: number };
  base = `http://127.0.0.1:${port}`;
  link = (await getReleaseLink(t, session, key.apiKey)).download_link;
  expect(new URL(link).origin).toBe(base);
});

afterAll(() => t.app.close());

interface Download {
  method: 'GET' | 'POST' | 'HEAD';
  path: string;
  body?: unknown;
  /** Hang up after the first chunk of the body. */
  abort?: boolean;
}

/** One download over HTTP; resolves with the status and the bytes received once the exchange is over. */
function download({ method, path, body, abort = false }: Download): Promise<{ status: number; bytes: number }> {
  const payload = body === undefined ? undefined : JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const request = http.request(
      `${base}${path}`,
      {
        method,
        headers: {
          ...auth(session),
          ...(payload ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) } : {}),
        },
      },
      (response) => {
        let bytes = 0;
        const status = response.statusCode ?? 0;
        response.on('data', (chunk: Buffer) => {
          bytes += chunk.length;
          if (abort) {
            request.destroy();
            resolve({ status, bytes });
          }
        });
        response.on('end', () => resolve({ status, bytes }));
        response.on('error', () => resolve({ status, bytes }));
      },
    );
    request.on('error', (error) => (abort ? undefined : reject(error)));
    request.end(payload);
  });
}

/** Requests whose exchange is over: Fastify logs 'request completed', or 'stream closed prematurely' for a hang-up. */
const FINISHED = new Set(['request completed', 'stream closed prematurely']);
const finished = () => new Set(lines.filter((line) => FINISHED.has(line.msg ?? '')).map((line) => line.reqId)).size;

describe('download logs', () => {
  it('proxy_dl, token and link downloads, finished or aborted, log no warning and no error', async () => {
    const linkPath = `${new URL(link).pathname}${new URL(link).search}`;
    const downloads: Download[] = [
      { method: 'POST', path: '/api/proxy_dl', body: { url: link } },
      { method: 'POST', path: '/api/download-with-token', body: { downloadUrl: link, token: themeToken } },
      { method: 'GET', path: linkPath },
      { method: 'HEAD', path: linkPath },
      { method: 'POST', path: '/api/proxy_dl', body: { url: link }, abort: true },
      { method: 'POST', path: '/api/download-with-token', body: { downloadUrl: link, token: themeToken }, abort: true },
      { method: 'GET', path: linkPath, abort: true },
    ];
    const before = finished();
    for (const item of downloads) {
      const { status, bytes } = await download(item);
      expect(status, `${item.method} ${item.path}`).toBe(200);
      if (item.method !== 'HEAD') expect(bytes).toBeGreaterThan(0);
    }
    // Each exchange is logged once it is over (an aborted one when its socket closes).
    await vi.waitFor(() => expect(finished() - before).toBeGreaterThanOrEqual(downloads.length), {
      timeout: 10_000,
      interval: 20,
    });
    const problems = lines.filter((line) => line.level >= 40).map((line) => line.raw);
    expect(problems).toEqual([]);
    const signature = new URL(link).searchParams.get('sig')!;
    expect(lines.some((line) => line.raw.includes(signature))).toBe(false);
  });
});
