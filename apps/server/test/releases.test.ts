import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { buffer } from 'node:stream/consumers';
import { eq } from 'drizzle-orm';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import * as yazl from 'yazl';
import { generateThemeZip } from '../src/db/demo-theme';
import { releases } from '../src/db/schema';
import { createDownloadLinks } from '../src/modules/releases/download-link';
import { expectUnzipTestPasses, readRawEntries } from './helpers/theme-zip';
import { auth, createTestApp, type TestApp } from './helpers/test-app';
import {
  claimNewKey,
  getReleaseLink,
  leftoverUploads,
  makeThemeZip,
  multipartBody,
  newCustomer,
  newStaff,
  pathOf,
  uploadRelease,
  useDataDir,
} from './helpers/releases';

const PUBLIC_URL = 'https://portal.keyport.test';
const SECRET = 'releases-test-secret-0123456789abcdef';
const MAX_BYTES = 256 * 1024;
const dataDir = useDataDir('releases');

let t: TestApp;
let staff: { token: string; id: number };
let customer: { token: string; id: number };
let proZip: Buffer;

beforeAll(async () => {
  t = await createTestApp({
    DATA_DIR: dataDir(),
    PUBLIC_URL,
    DOWNLOAD_LINK_SECRET: SECRET,
    RELEASE_MAX_BYTES: String(MAX_BYTES),
  });
  staff = await newStaff(t);
  customer = await newCustomer(t);
  proZip = (await makeThemeZip(dataDir(), { edition: 'PRO', version: '4.2.0' })).bytes;
});

afterEach(async () => {
  expect(await leftoverUploads(dataDir())).toEqual([]);
});

/** A valid zip that is not a theme. */
function plainZip(): Promise<Buffer> {
  const zip = new yazl.ZipFile();
  zip.addBuffer(Buffer.from('hello'), 'readme.txt');
  zip.end();
  const chunks: Buffer[] = [];
  return new Promise((resolve, reject) => {
    zip.outputStream.on('data', (chunk: Buffer) => chunks.push(chunk));
    zip.outputStream.on('end', () => resolve(Buffer.concat(chunks)));
    zip.outputStream.on('error', reject);
  });
}

const VERSION_MESSAGE = 'version must be a version such as 4.2.0 (at most 32 characters)';
const NOTES_MESSAGE = 'notes must be at most 5000 characters';
const fields = (version: string, edition = 'PRO') => ({ edition, version, notes: 'Faster header, new mega menu.' });

describe('POST /staff/releases (staff upload)', () => {
  it('stores a valid theme zip and answers 201 with the release', async () => {
    const response = await uploadRelease(t, staff.token, fields('4.2.0'), { content: proZip });
    expect(response.statusCode, response.body).toBe(201);
    expect(response.json()).toEqual({
      release: {
        id: expect.any(Number),
        edition: 'PRO',
        version: '4.2.0',
        notes: 'Faster header, new mega menu.',
        theme_name: 'Aurora',
        size_bytes: proZip.length,
        created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      },
    });
    const stored = await t.app.services.storage.localPath(
      (await t.app.services.db.query.releases.findFirst())!.storageKey,
    );
    expect(stored.startsWith(path.join(dataDir(), 'releases') + path.sep)).toBe(true);
    expect((await readFile(stored)).equals(proZip)).toBe(true);
  });

  it('moves a theme uploaded in one top-level folder to the zip root, copying every entry raw', async () => {
    const folder = path.join(dataDir(), 'aurora-pro-folder.zip');
    await generateThemeZip(folder, { edition: 'PRO', version: '4.1.0', folder: 'aurora-pro' });
    const uploaded = await readFile(folder);
    const response = await uploadRelease(t, staff.token, fields('4.1.0'), { content: uploaded });
    expect(response.statusCode, response.body).toBe(201);
    const row = (await t.db.select().from(releases).where(eq(releases.version, '4.1.0')))[0]!;
    const stored = await t.app.services.storage.localPath(row.storageKey);
    expect(response.json().release).toMatchObject({ theme_name: 'Aurora', size_bytes: (await stat(stored)).size });

    const before = await readRawEntries(folder);
    const after = await readRawEntries(stored);
    expect([...before.keys()].every((name) => name.startsWith('aurora-pro/'))).toBe(true);
    expect([...after.keys()]).toEqual([...before.keys()].map((name) => name.slice('aurora-pro/'.length)));
    expect([...after.keys()]).toContain('layout/theme.liquid');
    for (const [name, entry] of before) {
      const copy = after.get(name.slice('aurora-pro/'.length))!;
      expect(copy.data.equals(entry.data), name).toBe(true);
      expect(copy.descriptor.equals(entry.descriptor), name).toBe(true);
      expect([copy.crc32, copy.method], name).toEqual([entry.crc32, entry.method]);
    }
    await expectUnzipTestPasses(stored);
  });

  it('refuses a theme folder with other files beside it, with 400 and the reason', async () => {
    const zip = new yazl.ZipFile();
    for (const name of [
      'aurora/layout/theme.liquid',
      'aurora/templates/index.json',
      'aurora/config/a.json',
      'notes.txt',
    ]) {
      zip.addBuffer(Buffer.from('{}'), name);
    }
    zip.end();
    const response = await uploadRelease(t, staff.token, fields('4.0.9'), { content: await buffer(zip.outputStream) });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      error:
        'The zip holds notes.txt beside the theme folder aurora/; put only the theme in the zip (at its root or in one folder)',
      code: 'outside_theme_folder',
    });
  });

  it('answers 409 when that edition already has that version', async () => {
    const response = await uploadRelease(t, staff.token, fields('4.2.0'), { content: proZip });
    expect(response.statusCode).toBe(409);
    expect(response.json()).toMatchObject({ error: 'Version 4.2.0 of the PRO edition already exists.' });
  });

  it('refuses a file that is not a zip with 400 and the reason', async () => {
    const response = await uploadRelease(t, staff.token, fields('4.2.1'), { content: Buffer.from('not a zip at all') });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ error: 'The file is not a valid zip archive' });
  });

  it('refuses a zip that is not a Shopify theme with 400 and the reason', async () => {
    const response = await uploadRelease(t, staff.token, fields('4.2.2'), { content: await plainZip() });
    expect(response.statusCode).toBe(400);
    expect(response.json().error).toMatch(
      /^The zip does not look like a Shopify theme \(layout\/theme\.liquid is missing\)/,
    );
  });

  it('refuses a file over RELEASE_MAX_BYTES with 413', async () => {
    const big = await makeThemeZip(dataDir(), { edition: 'PRO', version: '4.3.0', paddingBytes: MAX_BYTES + 1024 });
    const response = await uploadRelease(t, staff.token, fields('4.3.0'), { content: big.bytes });
    expect(response.statusCode).toBe(413);
    expect(response.json()).toMatchObject({ error: 'The theme zip is too large (max 256 KB).' });
  });

  it.each([
    ['an unknown edition', { edition: 'GOLD', version: '1.0.0' }, 'edition must be LITE, REGULAR or PRO'],
    ['no edition', { version: '1.0.0' }, 'edition is required (LITE, REGULAR or PRO)'],
    ['a version that is not one', { edition: 'PRO', version: 'latest' }, VERSION_MESSAGE],
    ['a 36-character version', { edition: 'PRO', version: `1.0.0-${'a'.repeat(30)}` }, VERSION_MESSAGE],
    ['5001 characters of notes', { edition: 'PRO', version: '1.0.0', notes: 'n'.repeat(5001) }, NOTES_MESSAGE],
  ])('refuses %s with 400', async (_label, values, message) => {
    const response = await uploadRelease(t, staff.token, values, { content: proZip });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ error: message });
  });

  it('refuses an upload without a file, with two files, or that is not multipart, with 400', async () => {
    const noFile = await uploadRelease(t, staff.token, fields('5.0.0'));
    expect(noFile.statusCode).toBe(400);
    expect(noFile.json()).toMatchObject({ error: 'Attach the theme zip in the field "file".' });

    const wrongField = await uploadRelease(t, staff.token, fields('5.0.0'), { content: proZip, field: 'zip' });
    expect(wrongField.statusCode).toBe(400);

    const form = new FormData();
    for (const [name, value] of Object.entries(fields('5.0.0'))) form.append(name, value);
    form.append('file', new Blob([proZip]), 'a.zip');
    form.append('file', new Blob([proZip]), 'b.zip');
    const twoFiles = new Response(form);
    const response = await t.app.inject({
      method: 'POST',
      url: '/staff/releases',
      headers: { ...auth(staff.token), 'content-type': twoFiles.headers.get('content-type')! },
      payload: Buffer.from(await twoFiles.arrayBuffer()),
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ error: 'Upload one zip file per release.' });

    const json = await t.app.inject({
      method: 'POST',
      url: '/staff/releases',
      headers: auth(staff.token),
      payload: fields('5.0.0'),
    });
    expect(json.statusCode).toBe(400);
  });

  it('answers a cut-off or malformed multipart body with 400, never 500', async () => {
    const { payload, headers } = await (async () => {
      const form = new FormData();
      form.append('edition', 'PRO');
      form.append('version', '5.0.1');
      form.append('file', new Blob([proZip]), 'theme.zip');
      const body = new Response(form);
      return {
        payload: Buffer.from(await body.arrayBuffer()),
        headers: { 'content-type': body.headers.get('content-type')! },
      };
    })();
    for (const broken of [payload.subarray(0, payload.length - 200), Buffer.from('garbage'), Buffer.alloc(0)]) {
      const response = await t.app.inject({
        method: 'POST',
        url: '/staff/releases',
        headers: { ...auth(staff.token), ...headers },
        payload: broken,
      });
      expect(response.statusCode, response.body).toBe(400);
      expect(response.json().error).toBeTypeOf('string');
    }
    const noBoundary = await t.app.inject({
      method: 'POST',
      url: '/staff/releases',
      headers: { ...auth(staff.token), 'content-type': 'multipart/form-data' },
      payload: 'x',
    });
    expect(noBoundary.statusCode).toBeGreaterThanOrEqual(400);
    expect(noBoundary.statusCode).toBeLessThan(500);
  });

  it('is for staff only: 403 for a customer, 401 without a session', async () => {
    const asCustomer = await uploadRelease(t, customer.token, fields('6.0.0'), { content: proZip });
    expect(asCustomer.statusCode).toBe(403);
    const body = await multipartBody(fields('6.0.0'), { content: proZip });
    const anonymous = await t.app.inject({ method: 'POST', url: '/staff/releases', ...body });
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json()).toMatchObject({ error: 'Authentication required' });
  });
});

describe('POST /staff/get-releases', () => {
  it("gives the key's owner the newest release of the key's edition with a signed link of this server", async () => {
    const older = await makeThemeZip(dataDir(), { edition: 'PRO', version: '4.1.9' });
    expect((await uploadRelease(t, staff.token, fields('4.1.9'), { content: older.bytes })).statusCode).toBe(201);
    const key = await claimNewKey(t, customer.token, 'PRO');
    const started = Date.now();
    const result = await getReleaseLink(t, customer.token, key.apiKey.toLowerCase());
    expect(result.version).toBe('4.2.0');
    const link = new URL(result.download_link);
    expect(link.origin).toBe(PUBLIC_URL);
    expect(link.pathname).toMatch(/^\/api\/releases\/\d+\/download$/);
    expect(link.searchParams.get('key')).toBe(String(key.id));
    const expires = Number(link.searchParams.get('expires'));
    expect(expires - started).toBeGreaterThan(14 * 60_000);
    expect(expires - started).toBeLessThanOrEqual(15 * 60_000 + 1000);
  });

  it("answers 404 for another user's key, and 401 without a session", async () => {
    const key = await claimNewKey(t, customer.token, 'PRO');
    const other = await newCustomer(t, 'other');
    const response = await t.app.inject({
      method: 'POST',
      url: '/staff/get-releases',
      headers: auth(other.token),
      payload: { key: key.apiKey },
    });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toMatchObject({ error: 'License key not found.' });
    const anonymous = await t.app.inject({ method: 'POST', url: '/staff/get-releases', payload: { key: key.apiKey } });
    expect(anonymous.statusCode).toBe(401);
  });

  it("answers 404 'Failed to fetch theme version info' when the edition has no release", async () => {
    const key = await claimNewKey(t, customer.token, 'LITE');
    const response = await t.app.inject({
      method: 'POST',
      url: '/staff/get-releases',
      headers: auth(customer.token),
      payload: { key: key.apiKey },
    });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toMatchObject({ error: 'Failed to fetch theme version info' });
  });
});

describe('GET /api/releases/:id/download (the signed link)', () => {
  const expired = { error: 'This download link has expired. Please try again.', code: 'link_expired' };

  it('streams the unmodified zip with its length, type and file name', async () => {
    const key = await claimNewKey(t, customer.token, 'PRO');
    const { download_link } = await getReleaseLink(t, customer.token, key.apiKey);
    const response = await t.app.inject({ url: pathOf(download_link) });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/zip');
    expect(response.headers['content-length']).toBe(String(proZip.length));
    expect(response.headers['content-disposition']).toBe('attachment; filename="aurora-pro-4.2.0.zip"');
    expect(response.rawPayload.equals(proZip)).toBe(true);
  });

  it('answers 403 once the link has expired', async () => {
    const key = await claimNewKey(t, customer.token, 'PRO');
    const { download_link } = await getReleaseLink(t, customer.token, key.apiKey);
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 15 * 60_000 + 1 });
    try {
      const response = await t.app.inject({ url: pathOf(download_link) });
      expect(response.statusCode).toBe(403);
      expect(response.json()).toEqual(expired);
    } finally {
      vi.useRealTimers();
    }
  });

  it('answers 403 for a tampered signature, another key id or another release id', async () => {
    const key = await claimNewKey(t, customer.token, 'PRO');
    const link = pathOf((await getReleaseLink(t, customer.token, key.apiKey)).download_link);
    const tampered = [
      link.replace(/sig=(.)/, (_m, c: string) => `sig=${c === 'A' ? 'B' : 'A'}`),
      link.replace(`key=${key.id}`, `key=${key.id + 1}`),
      link.replace(/releases\/(\d+)/, (_m, id: string) => `releases/${Number(id) + 1}`),
    ];
    for (const url of tampered) {
      const response = await t.app.inject({ url });
      expect(response.statusCode, url).toBe(403);
      expect(response.json()).toEqual(expired);
    }
  });

  it('answers 400 for a malformed query and 404 for a release that does not exist', async () => {
    expect((await t.app.inject({ url: '/api/releases/1/download?key=1&user=1&expires=1&sig=short' })).statusCode).toBe(
      400,
    );
    const key = await claimNewKey(t, customer.token, 'PRO');
    const links = createDownloadLinks({ secret: Buffer.from(SECRET), publicUrl: () => PUBLIC_URL });
    const response = await t.app.inject({ url: pathOf(links.create(999_999, key.id, customer.id)) });
    expect(response.statusCode).toBe(404);
    expect(response.json().error).toBeTypeOf('string');
  });

  it('keeps the stored file after a download (storage sanity)', async () => {
    const row = (await t.app.services.db.query.releases.findFirst())!;
    expect((await stat(await t.app.services.storage.localPath(row.storageKey))).size).toBe(row.sizeBytes);
  });
});
