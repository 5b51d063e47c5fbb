import { Readable } from 'node:stream';
import zlib from 'node:zlib';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerJsonCompression } from '../src/http/compression';
import { auth, createTestApp, type TestApp } from './helpers/test-app';
import {
  claimNewKey,
  getReleaseLink,
  makeThemeZip,
  newCustomer,
  newStaff,
  pathOf,
  uploadRelease,
  useDataDir,
} from './helpers/releases';

const dataDir = useDataDir('compression');
let t: TestApp;
let customer: { token: string; id: number };
let zipBytes: Buffer;
let downloadPath: string;

beforeAll(async () => {
  t = await createTestApp({
    DATA_DIR: dataDir(),
    PUBLIC_URL: 'https://portal.keyport.test',
    DOWNLOAD_LINK_SECRET: 'compression-test-secret-0123456789abcdef',
  });
  const staff = await newStaff(t);
  const zip = await makeThemeZip(dataDir(), { edition: 'PRO', version: '4.2.0' });
  zipBytes = zip.bytes;
  const uploaded = await uploadRelease(t, staff.token, { edition: 'PRO', version: '4.2.0' }, { content: zip.bytes });
  expect(uploaded.statusCode, uploaded.body).toBe(201);
  customer = await newCustomer(t, 'compression');
  // Nine keys, as the demo customer has.
  const keys = [];
  for (const tier of ['PRO', 'PRO', 'REGULAR', 'REGULAR', 'LITE', 'LITE', 'PRO', 'REGULAR', 'LITE'] as const) {
    keys.push(await claimNewKey(t, customer.token, tier));
  }
  downloadPath = pathOf((await getReleaseLink(t, customer.token, keys[0]!.apiKey)).download_link);
});

const varies = (vary: unknown) =>
  String(vary ?? '')
    .toLowerCase()
    .split(',')
    .map((v) => v.trim());

describe('JSON responses are compressed above 1 KiB', () => {
  it('compresses the keys list with brotli or gzip, as the client prefers, to the same JSON', async () => {
    const plain = await t.app.inject({ url: '/keys/', headers: auth(customer.token) });
    expect(plain.statusCode).toBe(200);
    expect(plain.rawPayload.length).toBeGreaterThan(1024);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(varies(plain.headers.vary)).toContain('accept-encoding');

    const br = await t.app.inject({
      url: '/keys/',
      headers: { ...auth(customer.token), 'accept-encoding': 'gzip, deflate, br' },
    });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['content-type']).toMatch(/^application\/json/);
    expect(varies(br.headers.vary)).toContain('accept-encoding');
    expect(Number(br.headers['content-length'])).toBe(br.rawPayload.length);
    expect(br.rawPayload.length).toBeLessThan(plain.rawPayload.length / 2);
    expect(JSON.parse(zlib.brotliDecompressSync(br.rawPayload).toString('utf8'))).toEqual(plain.json());

    const gz = await t.app.inject({
      url: '/keys/',
      headers: { ...auth(customer.token), 'accept-encoding': 'gzip' },
    });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(Number(gz.headers['content-length'])).toBe(gz.rawPayload.length);
    expect(JSON.parse(zlib.gunzipSync(gz.rawPayload).toString('utf8'))).toEqual(plain.json());
  });

  it('compresses the OpenAPI document, and leaves small bodies (health, errors) alone', async () => {
    const doc = await t.app.inject({ url: '/api/openapi.json', headers: { 'accept-encoding': 'br' } });
    expect(doc.headers['content-encoding']).toBe('br');
    expect(JSON.parse(zlib.brotliDecompressSync(doc.rawPayload).toString('utf8')).openapi).toBe('3.1.0');
    const health = await t.app.inject({ url: '/health', headers: { 'accept-encoding': 'br, gzip' } });
    expect(health.headers['content-encoding']).toBeUndefined();
    expect(health.json()).toEqual({ status: 'ok' });
    const error = await t.app.inject({ url: '/keys/', headers: { 'accept-encoding': 'br, gzip' } });
    expect(error.statusCode).toBe(401);
    expect(error.headers['content-encoding']).toBeUndefined();
    expect(error.json().code).toBeTypeOf('string');
  });

  it('never compresses a zip download: same bytes, same Content-Length, whatever the client accepts', async () => {
    const response = await t.app.inject({ url: downloadPath, headers: { 'accept-encoding': 'br, gzip, deflate' } });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/zip');
    expect(response.headers['content-encoding']).toBeUndefined();
    expect(response.headers['content-length']).toBe(String(zipBytes.length));
    expect(response.rawPayload.equals(zipBytes)).toBe(true);
  });
});

describe('what the compression hook leaves alone', () => {
  let app: FastifyInstance;
  const big = JSON.stringify({ items: Array.from({ length: 100 }, (_, i) => ({ id: i, name: `item ${i}` })) });
  beforeAll(async () => {
    app = Fastify();
    registerJsonCompression(app);
    app.get('/stream', (_request, reply) => reply.type('application/json').send(Readable.from([Buffer.from(big)])));
    app.get('/partial', (_request, reply) =>
      reply
        .code(206)
        .type('application/json')
        .header('content-range', `bytes 0-${big.length - 1}/${big.length * 2}`)
        .send(big),
    );
    app.get('/pdf', (_request, reply) => reply.type('application/pdf').send(Buffer.from(big)));
    app.get('/buffer', (_request, reply) =>
      reply.type('application/json').header('content-length', String(big.length)).send(Buffer.from(big)),
    );
    app.get('/problem', (_request, reply) => reply.type('application/problem+json; charset=utf-8').send(big));
    await app.ready();
  });
  afterAll(() => app.close());

  const fetch = (url: string) => app.inject({ url, headers: { 'accept-encoding': 'br, gzip' } });

  it('passes streams, partial content and non-JSON bodies through unchanged', async () => {
    for (const url of ['/stream', '/partial', '/pdf']) {
      const response = await fetch(url);
      expect(response.headers['content-encoding'], url).toBeUndefined();
      expect(response.rawPayload.toString('utf8'), url).toBe(big);
    }
    expect((await fetch('/partial')).headers['content-range']).toBe(`bytes 0-${big.length - 1}/${big.length * 2}`);
  });

  it('replaces a Content-Length set by the handler with the compressed length', async () => {
    for (const url of ['/buffer', '/problem']) {
      const response = await fetch(url);
      expect(response.headers['content-encoding'], url).toBe('br');
      expect(Number(response.headers['content-length'])).toBe(response.rawPayload.length);
      expect(zlib.brotliDecompressSync(response.rawPayload).toString('utf8')).toBe(big);
    }
  });
});

describe('the 1 KiB threshold counts UTF-8 bytes, not characters (issue 22)', () => {
  let app: FastifyInstance;
  // 400 characters of three bytes each: 1 200 bytes of JSON text in under 1 024 characters.
  const wide = JSON.stringify({ text: '€'.repeat(400) });
  const narrow = JSON.stringify({ text: 'e'.repeat(400) });
  const exact = JSON.stringify({ text: 'e'.repeat(1024 - 11) });
  beforeAll(async () => {
    app = Fastify();
    registerJsonCompression(app);
    app.get('/wide', (_request, reply) => reply.type('application/json').send(wide));
    app.get('/narrow', (_request, reply) => reply.type('application/json').send(narrow));
    app.get('/exact', (_request, reply) => reply.type('application/json').send(exact));
    app.get('/exact-minus-one', (_request, reply) => reply.type('application/json').send(exact.slice(0, -2) + '}'));
    await app.ready();
  });
  afterAll(() => app.close());

  it('compresses from 1 024 bytes whatever the characters, and leaves smaller bodies alone', async () => {
    expect(Buffer.byteLength(wide)).toBeGreaterThan(1024);
    expect(wide.length).toBeLessThan(1024);
    expect(exact.length).toBe(1024);
    const get = (url: string) => app.inject({ url, headers: { 'accept-encoding': 'gzip' } });
    const compressed = await get('/wide');
    expect(compressed.headers['content-encoding']).toBe('gzip');
    expect(zlib.gunzipSync(compressed.rawPayload).toString('utf8')).toBe(wide);
    expect((await get('/exact')).headers['content-encoding']).toBe('gzip');
    for (const url of ['/narrow', '/exact-minus-one']) {
      const plain = await get(url);
      expect(plain.headers['content-encoding'], url).toBeUndefined();
      expect(varies(plain.headers.vary), url).not.toContain('accept-encoding');
    }
  });
});
