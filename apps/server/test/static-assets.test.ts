import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './helpers/test-app';

// A built web app as apps/web's build writes it: hashed files under assets/, each text file with a .br and a .gz
// beside it (apps/web/precompress.ts); the favicon too small to get variants.
const SCRIPT = Buffer.from(
  Array.from({ length: 400 }, (_, i) => `export const label${i} = "Schlüssel ${i} — clé";\n`).join(''),
  'utf8',
);
const STYLES = Buffer.from(Array.from({ length: 200 }, (_, i) => `.card-${i}{padding:${i}px}`).join('\n'), 'utf8');
const INDEX_HTML = Buffer.from(
  `<!doctype html><html lang="en"><head><meta charset="UTF-8"><title>Keyport</title>` +
    `<script type="module" crossorigin src="/assets/index-Ab12_cD-.js"></script>` +
    `<link rel="stylesheet" crossorigin href="/assets/index-Zx98yW76.css"></head>` +
    `<body><div id="root"></div>${'<!-- padding -->'.repeat(40)}</body></html>`,
  'utf8',
);
const FAVICON = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>', 'utf8');
const UNHASHED = Buffer.from('not a build output', 'utf8');

const brotli = (bytes: Buffer) => zlib.brotliCompressSync(bytes);
const gzip = (bytes: Buffer) => zlib.gzipSync(bytes, { level: 9 });

let dist: string;
let t: TestApp;

beforeAll(async () => {
  dist = await mkdtemp(path.join(os.tmpdir(), 'keyport-web-dist-'));
  await mkdir(path.join(dist, 'assets'));
  const files: [string, Buffer][] = [
    ['index.html', INDEX_HTML],
    ['favicon.svg', FAVICON],
    ['assets/index-Ab12_cD-.js', SCRIPT],
    ['assets/index-Zx98yW76.css', STYLES],
    ['assets/notes.txt', UNHASHED],
  ];
  for (const [name, bytes] of files) {
    await writeFile(path.join(dist, name), bytes);
    if (bytes.length >= 512) {
      await writeFile(path.join(dist, `${name}.br`), brotli(bytes));
      await writeFile(path.join(dist, `${name}.gz`), gzip(bytes));
    }
  }
  t = await createTestApp({ WEB_DIST_DIR: dist });
});
afterAll(() => rm(dist, { recursive: true, force: true }));

const get = (url: string, acceptEncoding?: string, headers: Record<string, string> = {}) =>
  t.app.inject({
    method: 'GET',
    url,
    headers: { ...(acceptEncoding === undefined ? {} : { 'accept-encoding': acceptEncoding }), ...headers },
  });

const varies = (vary: unknown) =>
  String(vary ?? '')
    .toLowerCase()
    .split(',')
    .map((v) => v.trim());

describe('the built web app, precompressed', () => {
  it('sends brotli when the browser accepts it (br before gzip), with the asset cached for a year', async () => {
    const response = await get('/assets/index-Ab12_cD-.js', 'gzip, deflate, br, zstd');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-encoding']).toBe('br');
    expect(response.headers['content-type']).toMatch(/^(?:text|application)\/javascript/);
    expect(varies(response.headers.vary)).toContain('accept-encoding');
    expect(response.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(Number(response.headers['content-length'])).toBe(response.rawPayload.length);
    expect(response.rawPayload.length).toBeLessThan(SCRIPT.length / 4);
    expect(zlib.brotliDecompressSync(response.rawPayload).equals(SCRIPT)).toBe(true);
  });

  it('sends gzip when brotli is not accepted or weighs less', async () => {
    for (const accept of ['gzip, deflate', 'br;q=0.5, gzip', 'gzip;q=1, br;q=0']) {
      const response = await get('/assets/index-Zx98yW76.css', accept);
      expect(response.headers['content-encoding'], accept).toBe('gzip');
      expect(response.headers['content-type']).toMatch(/^text\/css/);
      expect(varies(response.headers.vary)).toContain('accept-encoding');
      expect(Number(response.headers['content-length'])).toBe(response.rawPayload.length);
      expect(zlib.gunzipSync(response.rawPayload).equals(STYLES), accept).toBe(true);
    }
  });

  it('sends the file itself, byte for byte, to a client that accepts no encoding', async () => {
    for (const accept of [undefined, 'identity', 'deflate']) {
      const response = await get('/assets/index-Ab12_cD-.js', accept);
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-encoding'], String(accept)).toBeUndefined();
      // A shared cache must not hand this answer to a browser that accepts brotli.
      expect(varies(response.headers.vary)).toContain('accept-encoding');
      expect(response.headers['content-length']).toBe(String(SCRIPT.length));
      expect(response.rawPayload.equals(SCRIPT)).toBe(true);
    }
  });

  it('gives each encoding its own ETag and answers a matching If-None-Match with 304', async () => {
    const br = await get('/assets/index-Ab12_cD-.js', 'br');
    const plain = await get('/assets/index-Ab12_cD-.js');
    expect(br.headers.etag).toBeTruthy();
    expect(br.headers.etag).not.toBe(plain.headers.etag);
    const again = await get('/assets/index-Ab12_cD-.js', 'br', { 'if-none-match': String(br.headers.etag) });
    expect(again.statusCode).toBe(304);
    expect(again.rawPayload.length).toBe(0);
  });

  it('answers a Range request with the exact bytes of the file sent', async () => {
    const plain = await get('/assets/index-Ab12_cD-.js', undefined, { range: 'bytes=100-299' });
    expect(plain.statusCode).toBe(206);
    expect(plain.headers['content-range']).toBe(`bytes 100-299/${SCRIPT.length}`);
    expect(plain.headers['content-length']).toBe('200');
    expect(plain.rawPayload.equals(SCRIPT.subarray(100, 300))).toBe(true);
  });

  it('a HEAD request announces the same length and encoding as the GET', async () => {
    const head = await t.app.inject({
      method: 'HEAD',
      url: '/assets/index-Ab12_cD-.js',
      headers: { 'accept-encoding': 'br' },
    });
    expect(head.statusCode).toBe(200);
    expect(head.headers['content-encoding']).toBe('br');
    expect(head.headers['content-length']).toBe(String(brotli(SCRIPT).length));
  });

  it('serves index.html for the app routes, precompressed and always revalidated', async () => {
    for (const url of ['/customer/my-keys', '/login']) {
      const response = await get(url, 'br, gzip');
      expect(response.statusCode, url).toBe(200);
      expect(response.headers['content-type']).toMatch(/^text\/html/);
      expect(response.headers['content-encoding']).toBe('br');
      expect(response.headers['cache-control']).toBe('no-cache');
      expect(varies(response.headers.vary)).toContain('accept-encoding');
      expect(zlib.brotliDecompressSync(response.rawPayload).equals(INDEX_HTML)).toBe(true);
    }
    const gzipped = await get('/customer/my-keys', 'gzip');
    expect(gzipped.headers['content-encoding']).toBe('gzip');
    expect(zlib.gunzipSync(gzipped.rawPayload).equals(INDEX_HTML)).toBe(true);
    const direct = await get('/index.html');
    expect(direct.headers['cache-control']).toBe('no-cache');
    expect(direct.rawPayload.equals(INDEX_HTML)).toBe(true);
  });

  it('sends the root to the keys dashboard, whatever the client accepts (issue 21: no 403 without Accept-Encoding)', async () => {
    for (const acceptEncoding of [undefined, 'br, gzip', 'gzip', 'identity']) {
      for (const method of ['GET', 'HEAD'] as const) {
        const response = await t.app.inject({
          method,
          url: '/',
          headers: acceptEncoding === undefined ? {} : { 'accept-encoding': acceptEncoding },
        });
        expect(response.statusCode, `${method} / with ${acceptEncoding ?? 'no Accept-Encoding'}`).toBe(302);
        expect(response.headers.location).toBe('/customer/my-keys');
      }
    }
    // A browser navigation too; the query string goes along (the dashboard signs the visitor in first if needed).
    const navigation = await get('/?from=email', 'gzip, deflate, br', { accept: 'text/html' });
    expect(navigation.statusCode).toBe(302);
    expect(navigation.headers.location).toBe('/customer/my-keys?from=email');
  });

  it('revalidates files without a content hash, and sends a file without variants as it is', async () => {
    const favicon = await get('/favicon.svg', 'br, gzip');
    expect(favicon.statusCode).toBe(200);
    expect(favicon.headers['content-encoding']).toBeUndefined();
    expect(favicon.headers['cache-control']).toBe('no-cache');
    expect(favicon.rawPayload.equals(FAVICON)).toBe(true);
    const unhashed = await get('/assets/notes.txt', 'br');
    expect(unhashed.headers['cache-control']).toBe('no-cache');
    expect(unhashed.rawPayload.equals(UNHASHED)).toBe(true);
  });

  it('keeps the security headers on files, the app shell, a 304 and a range (ADR 047: they are in the reply headers)', async () => {
    const script = await get('/assets/index-Ab12_cD-.js', 'br');
    const answers = [
      script,
      await get('/assets/index-Ab12_cD-.js', 'br', { 'if-none-match': String(script.headers.etag) }),
      await get('/assets/index-Ab12_cD-.js', '', { range: 'bytes=0-9' }),
      await get('/customer/my-keys', 'gzip'),
      await get('/favicon.svg'),
    ];
    expect(answers.map((answer) => answer.statusCode)).toEqual([200, 304, 206, 200, 200]);
    for (const answer of answers) {
      expect(answer.headers['content-security-policy']).toContain("default-src 'self'");
      expect(answer.headers['x-frame-options']).toBe('SAMEORIGIN');
      expect(answer.headers['x-content-type-options']).toBe('nosniff');
    }
  });

  it('answers an unknown asset with a JSON 404, not with the app', async () => {
    const missing = await get('/assets/index-00000000.js', 'br');
    expect(missing.statusCode).toBe(404);
    expect(missing.json().code).toBe('not_found');
  });
});

describe('the staff console pages under /staff/, beside the staff API (issue 12)', () => {
  const navigation = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';

  it('answers a browser opening a console page with the app, whatever API route shares the path', async () => {
    for (const url of ['/staff', '/staff/audit-log', '/staff/updates', '/staff/customers/42', '/staff/reports?x=1']) {
      const response = await get(url, 'br', { accept: navigation });
      expect(response.statusCode, url).toBe(200);
      expect(response.headers['content-type']).toMatch(/^text\/html/);
      expect(response.headers['cache-control']).toBe('no-cache');
      expect(varies(response.headers.vary)).toEqual(expect.arrayContaining(['accept', 'accept-encoding']));
      expect(zlib.brotliDecompressSync(response.rawPayload).equals(INDEX_HTML)).toBe(true);
      // A page: the document's policy, not the API's `default-src 'none'` of the JSON route on the same path.
      expect(response.headers['content-security-policy'], url).toContain("script-src 'self'");
      expect(response.headers['x-frame-options'], url).toBe('SAMEORIGIN');
    }
  });

  it('keeps the API for calls that ask for JSON or anything: the staff check still answers', async () => {
    for (const accept of ['application/json', '*/*', undefined]) {
      const response = await get('/staff/audit-log', undefined, accept ? { accept } : {});
      expect(response.statusCode, accept).toBe(401);
      expect(response.json().code).toBeTypeOf('string');
      expect(varies(response.headers.vary)).toContain('accept');
    }
    const post = await t.app.inject({ method: 'POST', url: '/staff/keys', headers: { accept: navigation } });
    expect(post.statusCode).toBe(401);
    const other = await get('/keys/', undefined, { accept: navigation });
    expect(other.headers['content-type']).toMatch(/json/);
    expect(other.headers['content-security-policy']).toBe("default-src 'none'; frame-ancestors 'none'");
  });
});
