import dns from 'node:dns';
import { readFile, writeFile } from 'node:fs/promises';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import path from 'node:path';
import tls from 'node:tls';
import { buffer } from 'node:stream/consumers';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi, type MockInstance } from 'vitest';
import * as yauzl from 'yauzl';
import { createDownloadLinks } from '../src/modules/releases/download-link';
import { expectUnzipTestPasses, readRawEntries } from './helpers/theme-zip';
import { auth, createTestApp, type TestApp } from './helpers/test-app';
import {
  claimNewKey,
  getReleaseLink,
  issueThemeToken,
  makeThemeZip,
  newCustomer,
  newStaff,
  pathOf,
  uploadRelease,
  useDataDir,
} from './helpers/releases';

const PUBLIC_URL = 'https://portal.keyport.test';
const OWN_HOST = 'portal.keyport.test';
const SECRET = 'downloads-test-secret-0123456789abcdef';
const DOWNLOAD_LIMIT = 8;
const dataDir = useDataDir('downloads');

let t: TestApp;
let owner: { token: string; id: number };
let stranger: { token: string; id: number };
let keyA: { apiKey: string; id: number };
let keyB: { apiKey: string; id: number };
let regularKey: { apiKey: string; id: number };
let strangerKey: { apiKey: string; id: number };
let tokenA: string;
let linkA: string;
let proZipPath: string;
let proReleaseId: number;

beforeAll(async () => {
  t = await createTestApp({
    DATA_DIR: dataDir(),
    PUBLIC_URL,
    DOWNLOAD_LINK_SECRET: SECRET,
    DOWNLOAD_RATE_LIMIT_MAX: String(DOWNLOAD_LIMIT),
  });
  const staff = await newStaff(t);
  const proZip = await makeThemeZip(dataDir(), { edition: 'PRO', version: '4.2.0', settingsData: 'bom-comment' });
  proZipPath = path.join(dataDir(), 'pro-original.zip');
  await writeFile(proZipPath, proZip.bytes);
  const uploaded = await uploadRelease(t, staff.token, { edition: 'PRO', version: '4.2.0' }, { content: proZip.bytes });
  expect(uploaded.statusCode, uploaded.body).toBe(201);
  proReleaseId = uploaded.json<{ release: { id: number } }>().release.id;
  const regularZip = await makeThemeZip(dataDir(), { edition: 'REGULAR', version: '4.2.0' });
  const regular = await uploadRelease(
    t,
    staff.token,
    { edition: 'REGULAR', version: '4.2.0' },
    { content: regularZip.bytes },
  );
  expect(regular.statusCode).toBe(201);

  owner = await newCustomer(t, 'owner');
  stranger = await newCustomer(t, 'stranger');
  keyA = await claimNewKey(t, owner.token, 'PRO');
  keyB = await claimNewKey(t, owner.token, 'PRO');
  regularKey = await claimNewKey(t, owner.token, 'REGULAR');
  strangerKey = await claimNewKey(t, stranger.token, 'PRO');
  tokenA = await issueThemeToken(t, owner.token, keyA.apiKey);
  linkA = (await getReleaseLink(t, owner.token, keyA.apiKey)).download_link;
});

const downloadWithToken = (userToken: string, body: Record<string, unknown>, host = OWN_HOST) =>
  t.app.inject({
    method: 'POST',
    url: '/api/download-with-token',
    headers: { ...auth(userToken), host },
    payload: body,
  });
const proxyDownload = (userToken: string, url: unknown, host = OWN_HOST) =>
  t.app.inject({ method: 'POST', url: '/api/proxy_dl', headers: { ...auth(userToken), host }, payload: { url } });

/** One entry's bytes, read with yauzl (as text: a BOM is kept). */
function readEntry(zipPath: string, name: string): Promise<string> {
  return new Promise((resolve, reject) => {
    yauzl.open(zipPath, { lazyEntries: true }, (error, zipfile) => {
      if (error) return reject(error);
      zipfile.on('entry', (entry: yauzl.Entry) => {
        if (entry.fileName !== name) return zipfile.readEntry();
        zipfile.openReadStream(entry, (streamError, stream) => {
          if (streamError) return reject(streamError);
          buffer(stream).then((bytes) => resolve(bytes.toString('utf8')), reject);
        });
      });
      zipfile.once('end', () => reject(new Error(`${name} not found`)));
      zipfile.readEntry();
    });
  });
}

const SETTINGS = 'config/settings_data.json';

describe('POST /api/download-with-token', () => {
  it('streams the release with the token in settings_data.json and every other entry byte for byte', async () => {
    const response = await downloadWithToken(owner.token, { downloadUrl: linkA, token: tokenA, licenseType: 'PRO' });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['content-type']).toBe('application/zip');
    expect(response.headers['content-disposition']).toBe('attachment; filename="aurora-pro-4.2.0.zip"');
    expect(Number(response.headers['content-length'])).toBe(response.rawPayload.length);

    const saved = path.join(dataDir(), 'with-token.zip');
    await writeFile(saved, response.rawPayload);
    await expectUnzipTestPasses(saved);
    const settingsText = await readEntry(saved, SETTINGS);
    expect(settingsText.startsWith('\uFEFF/*')).toBe(true);
    const settings = JSON.parse(settingsText.slice(settingsText.indexOf('*/') + 2));
    expect(settings.current.license_token).toBe(tokenA);
    expect(settings.current.color_accent).toBe('#1f6feb');

    const original = await readRawEntries(proZipPath);
    const rewritten = await readRawEntries(saved);
    // Same entries in the same order: the settings entry keeps its place.
    expect([...rewritten.keys()]).toEqual([...original.keys()]);
    for (const [name, entry] of original) {
      if (name === SETTINGS) continue;
      const copy = rewritten.get(name)!;
      expect(copy.localHeader.equals(entry.localHeader), name).toBe(true);
      expect(copy.data.equals(entry.data), name).toBe(true);
      expect(copy.descriptor.equals(entry.descriptor), name).toBe(true);
    }
  });

  it('accepts the link under the Host the browser used (localhost vs 127.0.0.1)', async () => {
    const link = linkA.replace(PUBLIC_URL, 'http://localhost:5173');
    const response = await downloadWithToken(owner.token, { downloadUrl: link, token: tokenA }, 'localhost:5173');
    expect(response.statusCode, response.body).toBe(200);
    const refused = await downloadWithToken(owner.token, { downloadUrl: link, token: tokenA }, '127.0.0.1:5173');
    expect(refused.statusCode).toBe(400);
  });

  it("refuses the token of another user's key (404) and a token that is not one (403)", async () => {
    const strangerToken = await issueThemeToken(t, stranger.token, strangerKey.apiKey);
    const other = await downloadWithToken(owner.token, { downloadUrl: linkA, token: strangerToken });
    expect(other.statusCode).toBe(404);
    expect(other.json()).toMatchObject({ error: 'License key not found.' });
    // The stranger with their own token and the owner's link: the link's key is not theirs.
    const theirs = await downloadWithToken(stranger.token, { downloadUrl: linkA, token: strangerToken });
    expect(theirs.statusCode).toBe(403);
    for (const token of ['not-a-token', `${tokenA}x`, tokenA.split('.').slice(0, 2).join('.') + '.AAAA']) {
      const response = await downloadWithToken(owner.token, { downloadUrl: linkA, token });
      expect(response.statusCode).toBe(403);
      expect(response.json()).toMatchObject({
        error: 'Authentication token not available. Please generate token first.',
      });
    }
    const empty = await downloadWithToken(owner.token, { downloadUrl: linkA, token: '' });
    expect(empty.statusCode).toBe(400);
    expect(empty.json()).toMatchObject({ error: 'Authentication token not available. Please generate token first.' });
  });

  it('refuses the token of key A with the link of key B', async () => {
    const linkB = (await getReleaseLink(t, owner.token, keyB.apiKey)).download_link;
    const response = await downloadWithToken(owner.token, { downloadUrl: linkB, token: tokenA });
    expect(response.statusCode).toBe(403);
    expect(response.json()).toMatchObject({ error: 'This download link belongs to another license key.' });
  });

  it('refuses a stale token once a new one was issued for the key', async () => {
    const key = await claimNewKey(t, owner.token, 'PRO');
    const stale = await issueThemeToken(t, owner.token, key.apiKey);
    const fresh = await issueThemeToken(t, owner.token, key.apiKey);
    const link = (await getReleaseLink(t, owner.token, key.apiKey)).download_link;
    const refused = await downloadWithToken(owner.token, { downloadUrl: link, token: stale });
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ error: 'Authentication token not available. Please generate token first.' });
    expect((await downloadWithToken(owner.token, { downloadUrl: link, token: fresh })).statusCode).toBe(200);
  });

  it("refuses a (validly signed) link to another edition's release", async () => {
    const regularToken = await issueThemeToken(t, owner.token, regularKey.apiKey);
    const links = createDownloadLinks({ secret: Buffer.from(SECRET), publicUrl: () => PUBLIC_URL });
    const crossEdition = links.create(proReleaseId, regularKey.id, owner.id);
    const response = await downloadWithToken(owner.token, { downloadUrl: crossEdition, token: regularToken });
    expect(response.statusCode).toBe(403);
    expect(response.json()).toMatchObject({ error: 'This release is for another edition than your license.' });
  });

  it('needs a session', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/download-with-token',
      payload: { downloadUrl: linkA, token: tokenA },
    });
    expect(response.statusCode).toBe(401);
  });
});

describe('POST /api/proxy_dl', () => {
  it('streams the unmodified release behind one of our links', async () => {
    const response = await proxyDownload(owner.token, linkA);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['content-disposition']).toBe('attachment; filename="aurora-pro-4.2.0.zip"');
    const original = await readFile(proZipPath);
    expect(response.rawPayload.equals(original)).toBe(true);
  });

  it("answers 404 for another user's link and 401 without a session", async () => {
    expect((await proxyDownload(stranger.token, linkA)).statusCode).toBe(404);
    const anonymous = await t.app.inject({ method: 'POST', url: '/api/proxy_dl', payload: { url: linkA } });
    expect(anonymous.statusCode).toBe(401);
  });
});

describe('a signed link is bound to the owner of its key', () => {
  const linkExpired = { error: 'This download link has expired. Please try again.', code: 'link_expired' };
  const disconnect = (userToken: string, apiKey: string) =>
    t.app.inject({ method: 'POST', url: '/keys/delete', headers: auth(userToken), payload: { apiKey } });
  const claim = (userToken: string, apiKey: string) =>
    t.app.inject({ method: 'POST', url: '/keys/', headers: auth(userToken), payload: { key: apiKey } });

  it('names the owner in the signed link', async () => {
    const link = new URL(linkA);
    expect([...link.searchParams.keys()]).toEqual(['key', 'user', 'expires', 'sig']);
    expect(link.searchParams.get('user')).toBe(String(owner.id));
  });

  it('stops working once the key is disconnected, and stays dead after someone else claims the key', async () => {
    const first = await newCustomer(t, 'first-owner');
    const key = await claimNewKey(t, first.token, 'PRO');
    const link = (await getReleaseLink(t, first.token, key.apiKey)).download_link;
    expect((await t.app.inject({ url: pathOf(link) })).statusCode).toBe(200);
    expect((await proxyDownload(first.token, link)).statusCode).toBe(200);

    expect((await disconnect(first.token, key.apiKey)).statusCode).toBe(200);
    const afterDisconnect = await t.app.inject({ url: pathOf(link) });
    expect(afterDisconnect.statusCode).toBe(403);
    expect(afterDisconnect.json()).toEqual(linkExpired);
    expect((await t.app.inject({ method: 'HEAD', url: pathOf(link) })).statusCode).toBe(403);
    expect((await proxyDownload(first.token, link)).statusCode).toBe(404);

    const second = await newCustomer(t, 'second-owner');
    expect((await claim(second.token, key.apiKey)).statusCode).toBe(201);
    const afterClaim = await t.app.inject({ url: pathOf(link) });
    expect(afterClaim.statusCode).toBe(403);
    expect(afterClaim.json()).toEqual(linkExpired);
    // The new owner cannot use the old owner's link either, with or without a token; their own link works.
    const viaProxy = await proxyDownload(second.token, link);
    expect(viaProxy.statusCode).toBe(403);
    expect(viaProxy.json()).toEqual(linkExpired);
    const secondToken = await issueThemeToken(t, second.token, key.apiKey);
    const viaToken = await downloadWithToken(second.token, { downloadUrl: link, token: secondToken });
    expect(viaToken.statusCode).toBe(403);
    expect(viaToken.json()).toEqual(linkExpired);
    const own = (await getReleaseLink(t, second.token, key.apiKey)).download_link;
    expect((await t.app.inject({ url: pathOf(own) })).statusCode).toBe(200);
    expect((await downloadWithToken(second.token, { downloadUrl: own, token: secondToken })).statusCode).toBe(200);
  });

  it('refuses a link whose owner was changed (the signature covers it)', async () => {
    const forged = linkA.replace(`user=${owner.id}`, `user=${stranger.id}`);
    const response = await t.app.inject({ url: pathOf(forged) });
    expect(response.statusCode).toBe(403);
    expect(response.json()).toEqual(linkExpired);
  });
});

describe('SSRF probes on both download routes: never a connection, always a 4xx with {error}', () => {
  const linkMissing = { status: 400, error: 'Download link not available.' };
  const expired = { status: 403, error: 'This download link has expired. Please try again.' };
  const tooLong = { status: 400, error: 'The link is too long' };

  /** The probes, built once linkA exists: [label, url, expected]. */
  function probes(): [string, string, { status: number; error: string }][] {
    const own = new URL(linkA);
    const query = own.search;
    const releasePath = own.pathname;
    const oldLinks = createDownloadLinks({
      secret: Buffer.from(SECRET),
      publicUrl: () => PUBLIC_URL,
      now: () => Date.now() - 16 * 60_000,
    });
    const badSig = linkA.replace(/sig=(.)/, (_m, c: string) => `sig=${c === 'A' ? 'B' : 'A'}`);
    return [
      ['IPv4 loopback', `http://127.0.0.1${releasePath}${query}`, linkMissing],
      ['IPv4 loopback with a port', `http://127.0.0.1:3000${releasePath}${query}`, linkMissing],
      ['localhost', `http://localhost${releasePath}${query}`, linkMissing],
      ['IPv6 loopback', `http://[::1]${releasePath}${query}`, linkMissing],
      ['IPv6 unspecified', `http://[::]${releasePath}${query}`, linkMissing],
      ['0.0.0.0', `http://0.0.0.0${releasePath}${query}`, linkMissing],
      ['decimal loopback', `http://2130706433${releasePath}${query}`, linkMissing],
      ['hex loopback', `http://0x7f000001${releasePath}${query}`, linkMissing],
      ['octal loopback', `http://017700000001${releasePath}${query}`, linkMissing],
      ['short loopback', `http://127.1${releasePath}${query}`, linkMissing],
      ['cloud metadata', 'http://169.254.169.254/latest/meta-data/', linkMissing],
      ['cloud metadata by name', 'http://metadata.google.internal/computeMetadata/v1/', linkMissing],
      ['IPv4-mapped IPv6 loopback', `http://[::ffff:127.0.0.1]${releasePath}${query}`, linkMissing],
      ['private 10/8', `http://10.0.0.1${releasePath}${query}`, linkMissing],
      ['private 192.168/16', `http://192.168.1.1${releasePath}${query}`, linkMissing],
      ['private 172.16/12', `http://172.16.0.1${releasePath}${query}`, linkMissing],
      ['file scheme', 'file:///etc/passwd', linkMissing],
      ['gopher scheme', `gopher://${OWN_HOST}:70/_GET%20/`, linkMissing],
      ['ftp scheme', `ftp://${OWN_HOST}${releasePath}${query}`, linkMissing],
      ['dict scheme', `dict://${OWN_HOST}:11211/stat`, linkMissing],
      ['data URL', 'data:application/zip;base64,UEsFBgAAAAAAAAAAAAAAAAAAAAAAAA==', linkMissing],
      ['javascript URL', 'javascript:alert(1)', linkMissing],
      ['user info on our host', `https://user:pass@${OWN_HOST}${releasePath}${query}`, linkMissing],
      ['our host as user info', `https://${OWN_HOST}@evil.example${releasePath}${query}`, linkMissing],
      ['backslash user info trick', `https://${OWN_HOST}\\@evil.example${releasePath}${query}`, linkMissing],
      ['another host, valid-looking query', `https://evil.example${releasePath}${query}`, linkMissing],
      ['our host on another port', `https://${OWN_HOST}:8443${releasePath}${query}`, linkMissing],
      ['our host with a trailing dot', `https://${OWN_HOST}.${releasePath}${query}`, linkMissing],
      ['our host in upper case', `HTTPS://${OWN_HOST.toUpperCase()}${releasePath}${query}`, linkMissing],
      ['redirect-ish parameter', `${linkA}&next=http://169.254.169.254/`, linkMissing],
      ['duplicated parameter', `${linkA}&key=${keyA.id}`, linkMissing],
      ['fragment', `${linkA}#http://169.254.169.254/`, linkMissing],
      ['extra path segment', `${PUBLIC_URL}${releasePath}/extra${query}`, linkMissing],
      ['encoded slash', `${PUBLIC_URL}${releasePath.replace('/download', '%2Fdownload')}${query}`, linkMissing],
      [
        'encoded dot segments',
        `${PUBLIC_URL}${releasePath.replace('/download', '/x/%2e%2e/download')}${query}`,
        linkMissing,
      ],
      ['plain dot segments', `${PUBLIC_URL}/api/x/..${releasePath.slice(4)}${query}`, linkMissing],
      ['scheme-relative', `//${OWN_HOST}${releasePath}${query}`, linkMissing],
      ['relative path', `${releasePath}${query}`, linkMissing],
      ['wrong signature', badSig, expired],
      ['expired link', oldLinks.create(proReleaseId, keyA.id, owner.id), expired],
      ['3000-character URL', `${linkA}&pad=${'a'.repeat(3000)}`, tooLong],
      ['empty string', '', linkMissing],
      ['leading space', ` ${linkA}`, linkMissing],
      ['trailing newline', `${linkA}\n`, linkMissing],
      ['embedded tab and newline', linkA.replace('/api/', '/a\tp\ni/'), linkMissing],
    ];
  }

  let spies: MockInstance[] = [];
  const databaseTarget = process.env.TEST_DATABASE_URL ? new URL(process.env.TEST_DATABASE_URL) : null;

  beforeEach(() => {
    spies = [
      vi.spyOn(net.Socket.prototype, 'connect'),
      vi.spyOn(net, 'connect'),
      vi.spyOn(net, 'createConnection'),
      vi.spyOn(tls, 'connect'),
      vi.spyOn(http, 'request'),
      vi.spyOn(http, 'get'),
      vi.spyOn(https, 'request'),
      vi.spyOn(https, 'get'),
      vi.spyOn(globalThis, 'fetch'),
      vi.spyOn(dns, 'lookup'),
      vi.spyOn(dns.promises, 'lookup'),
    ];
  });
  afterEach(() => {
    for (const spy of spies) spy.mockRestore();
  });

  /** Calls to any network function, except the test database's own connections (PostgreSQL runs). */
  function outboundCalls(): unknown[][] {
    return spies
      .flatMap((spy) => spy.mock.calls)
      .filter((args) => !(databaseTarget && isDatabaseConnect(args, databaseTarget)));
  }

  it('has at least 30 probes', () => {
    expect(probes().length).toBeGreaterThanOrEqual(30);
  });

  it('POST /api/download-with-token refuses every probe', async () => {
    for (const [label, url, expected] of probes()) {
      const response = await downloadWithToken(owner.token, { downloadUrl: url, token: tokenA });
      expect(response.statusCode, label).toBe(expected.status);
      expect(response.json(), label).toMatchObject({ error: expected.error });
    }
    expect(outboundCalls()).toEqual([]);
  });

  it('POST /api/proxy_dl refuses every probe', async () => {
    for (const [label, url, expected] of probes()) {
      const response = await proxyDownload(owner.token, url);
      expect(response.statusCode, label).toBe(expected.status);
      expect(response.json(), label).toMatchObject({ error: expected.error });
    }
    expect(outboundCalls()).toEqual([]);
  });

  it('refuses non-string and oversized bodies as well', async () => {
    for (const url of [null, 42, ['http://127.0.0.1/'], { href: linkA }]) {
      const response = await proxyDownload(owner.token, url);
      expect(response.statusCode).toBe(400);
      expect(response.json().error).toBeTypeOf('string');
    }
    expect(outboundCalls()).toEqual([]);
  });
});

describe('download rate limit', () => {
  it(`allows ${DOWNLOAD_LIMIT} downloads per user in the window, then answers 429 with Retry-After`, async () => {
    const person = await newCustomer(t, 'frequent');
    const key = await claimNewKey(t, person.token, 'PRO');
    const link = (await getReleaseLink(t, person.token, key.apiKey)).download_link;
    const statuses: number[] = [];
    for (let i = 0; i < DOWNLOAD_LIMIT + 1; i++) statuses.push((await proxyDownload(person.token, link)).statusCode);
    expect(statuses).toEqual([...Array<number>(DOWNLOAD_LIMIT).fill(200), 429]);
    const limited = await proxyDownload(person.token, link);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect(limited.json()).toMatchObject({ error: 'Too many downloads. Please wait a few minutes and try again.' });
    // The signed link has its own allowance, per key.
    expect((await t.app.inject({ url: pathOf(link) })).statusCode).toBe(200);
  });
});

describe('the signed link: HEAD, Range and ETag', () => {
  let zip: Buffer;
  /** A fresh key's signed link (each key has its own download allowance). */
  async function freshLink(): Promise<string> {
    const person = await newCustomer(t, 'resumer');
    const key = await claimNewKey(t, person.token, 'PRO');
    return pathOf((await getReleaseLink(t, person.token, key.apiKey)).download_link);
  }
  const get = (url: string, headers: Record<string, string> = {}) => t.app.inject({ url, headers });

  beforeAll(async () => {
    zip = await readFile(proZipPath);
  });

  it(`does not count HEAD against the download quota: 30 HEADs, then GET → 200`, async () => {
    const link = await freshLink();
    for (let i = 0; i < 30; i++) {
      const head = await t.app.inject({ method: 'HEAD', url: link });
      expect(head.statusCode).toBe(200);
      expect(head.headers['content-length']).toBe(String(zip.length));
      expect(head.headers['accept-ranges']).toBe('bytes');
      expect(head.headers['etag']).toMatch(/^"[A-Za-z0-9_-]+"$/);
      expect(head.rawPayload.length).toBe(0);
    }
    const response = await get(link);
    expect(response.statusCode).toBe(200);
    expect(response.rawPayload.equals(zip)).toBe(true);
  });

  it('answers the whole file with Accept-Ranges and the same strong ETag each time', async () => {
    const link = await freshLink();
    const first = await get(link);
    const second = await get(link);
    expect(first.statusCode).toBe(200);
    expect(first.headers['accept-ranges']).toBe('bytes');
    expect(first.headers['etag']).toMatch(/^"[A-Za-z0-9_-]+"$/);
    expect(second.headers['etag']).toBe(first.headers['etag']);
    expect(first.headers['content-range']).toBeUndefined();
  });

  it('answers one byte range with 206, its Content-Range and exactly those bytes', async () => {
    const link = await freshLink();
    const size = zip.length;
    const cases: [string, number, number][] = [
      ['bytes=0-99', 0, 99],
      ['bytes=100-', 100, size - 1],
      ['bytes=-22', size - 22, size - 1],
      ['bytes=1000-1000', 1000, 1000],
      [`bytes=${size - 10}-${size * 2}`, size - 10, size - 1],
    ];
    for (const [range, start, end] of cases) {
      const response = await get(link, { range });
      expect(response.statusCode, range).toBe(206);
      expect(response.headers['content-range'], range).toBe(`bytes ${start}-${end}/${size}`);
      expect(response.headers['content-length'], range).toBe(String(end - start + 1));
      expect(response.headers['accept-ranges']).toBe('bytes');
      expect(response.headers['content-type']).toBe('application/zip');
      expect(response.rawPayload.equals(zip.subarray(start, end + 1)), range).toBe(true);
    }
    // The end record is where it belongs: the last 22 bytes start with its signature.
    expect((await freshLink().then((other) => get(other, { range: 'bytes=-22' }))).rawPayload.readUInt32LE(0)).toBe(
      0x06054b50,
    );
  });

  it('answers 416 with Content-Range: bytes */size for a range past the end', async () => {
    const link = await freshLink();
    for (const range of [`bytes=${zip.length}-`, `bytes=${zip.length + 5}-${zip.length + 10}`, 'bytes=-0']) {
      const response = await get(link, { range });
      expect(response.statusCode, range).toBe(416);
      expect(response.headers['content-range']).toBe(`bytes */${zip.length}`);
      expect(response.json()).toEqual({
        error: 'The requested range is not satisfiable.',
        code: 'range_not_satisfiable',
      });
    }
  });

  it('sends the whole file for several ranges, a malformed one, or an If-Range naming another copy', async () => {
    const link = await freshLink();
    const etag = (await t.app.inject({ method: 'HEAD', url: link })).headers['etag'] as string;
    expect((await get(link, { range: 'bytes=0-9', 'if-range': etag })).statusCode).toBe(206);
    const variants: Record<string, string>[] = [
      { range: 'bytes=0-9', 'if-range': '"another-copy"' },
      { range: 'bytes=0-1,5-6' },
      { range: 'bytes=9-0' },
    ];
    for (const headers of variants) {
      const response = await get(link, headers);
      expect(response.statusCode, JSON.stringify(headers)).toBe(200);
      expect(response.rawPayload.equals(zip)).toBe(true);
    }
  });
});

/** node-postgres connects with `socket.connect(port, host)`. */
function isDatabaseConnect(args: unknown[], target: URL): boolean {
  const [first, second] = args;
  const port = Number(target.port || 5432);
  if (typeof first === 'number') return first === port && (second === undefined || second === target.hostname);
  if (typeof first === 'object' && first !== null && 'port' in first) return Number(first.port) === port;
  return false;
}
