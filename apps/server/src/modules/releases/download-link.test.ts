import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DOWNLOAD_LINK_TTL_MS, createDownloadLinks } from './download-link';
import { loadDownloadLinkSecret } from './download-link-secret';

const secret = randomBytes(32);
let clock = 1_800_000_000_000;
const links = createDownloadLinks({ secret, publicUrl: () => 'http://127.0.0.1:3000', now: () => clock });

describe('signed download links', () => {
  it('creates an absolute link of this server that parses back to its release, key and owner', () => {
    const link = links.create(7, 42, 5);
    expect(link).toMatch(
      /^http:\/\/127\.0\.0\.1:3000\/api\/releases\/7\/download\?key=42&user=5&expires=\d{13}&sig=[A-Za-z0-9_-]{43}$/,
    );
    expect(links.parse(link, undefined)).toEqual({
      ok: true,
      claims: { releaseId: 7, keyId: 42, userId: 5, expires: clock + DOWNLOAD_LINK_TTL_MS },
    });
  });

  it('accepts the link under the host the request came in on (localhost vs 127.0.0.1), and no other', () => {
    const link = links.create(7, 42, 5).replace('127.0.0.1:3000', 'localhost:3000');
    expect(links.parse(link, 'localhost:3000').ok).toBe(true);
    expect(links.parse(link, 'LOCALHOST:3000').ok).toBe(true);
    expect(links.parse(link, 'localhost:3001')).toEqual({ ok: false, problem: 'not_a_release_link' });
    expect(links.parse(link, undefined)).toEqual({ ok: false, problem: 'not_a_release_link' });
    expect(links.parse(link, 'user@localhost:3000').ok).toBe(false);
  });

  it('expires after 15 minutes', () => {
    const link = links.create(1, 2, 3);
    clock += DOWNLOAD_LINK_TTL_MS - 1;
    expect(links.parse(link, undefined).ok).toBe(true);
    clock += 1;
    expect(links.parse(link, undefined)).toEqual({ ok: false, problem: 'expired' });
  });

  it('refuses a changed release, key, owner, expiry or signature, and a link signed with another secret', () => {
    const link = links.create(3, 4, 6);
    const url = new URL(link);
    const variants = [
      link.replace('/releases/3/', '/releases/4/'),
      link.replace('key=4', 'key=5'),
      link.replace('user=6', 'user=7'),
      link.replace(/expires=(\d+)/, (_m, e: string) => `expires=${Number(e) + 1000}`),
      link.replace(/sig=(.)/, (_m, c: string) => `sig=${c === 'A' ? 'B' : 'A'}`),
      createDownloadLinks({ secret: randomBytes(32), publicUrl: () => url.origin, now: () => clock }).create(3, 4, 6),
    ];
    for (const variant of variants) expect(links.parse(variant, undefined)).toEqual({ ok: false, problem: 'expired' });
  });

  it('checks the GET route query the same way', () => {
    const url = new URL(links.create(9, 10, 11));
    const query = {
      id: '9',
      key: url.searchParams.get('key')!,
      user: url.searchParams.get('user')!,
      expires: url.searchParams.get('expires')!,
      sig: url.searchParams.get('sig')!,
    };
    expect(links.checkQuery(query).ok).toBe(true);
    expect(links.checkQuery({ ...query, id: '99' })).toEqual({ ok: false, problem: 'expired' });
    expect(links.checkQuery({ ...query, id: '99999999999' })).toEqual({ ok: false, problem: 'not_a_release_link' });
    expect(links.checkQuery({ ...query, id: '9999999999' })).toEqual({ ok: false, problem: 'expired' });
    expect(links.checkQuery({ ...query, user: '12' })).toEqual({ ok: false, problem: 'expired' });
    expect(links.checkQuery({ ...query, user: '' })).toEqual({ ok: false, problem: 'not_a_release_link' });
  });

  it('keeps a path prefix of the public URL', () => {
    const prefixed = createDownloadLinks({
      secret,
      publicUrl: () => 'https://portal.example.com/keyport/',
      now: () => clock,
    });
    const link = prefixed.create(1, 1, 1);
    expect(link.startsWith('https://portal.example.com/keyport/api/releases/1/download?')).toBe(true);
    expect(prefixed.parse(link, undefined).ok).toBe(true);
    expect(prefixed.parse(link.replace('/keyport', ''), undefined).ok).toBe(false);
  });
});

describe('the link secret', () => {
  const dirs: string[] = [];
  afterAll(() => Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true }))));

  it('uses DOWNLOAD_LINK_SECRET when configured', () => {
    const configured = 'x'.repeat(40);
    expect(loadDownloadLinkSecret({ configured, dataDir: '/nonexistent' }).toString()).toBe(configured);
  });

  it('otherwise generates one once, kept in the data directory with mode 0600', async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'keyport-secret-'));
    dirs.push(dataDir);
    const first = loadDownloadLinkSecret({ configured: null, dataDir });
    const second = loadDownloadLinkSecret({ configured: null, dataDir });
    expect(first.length).toBeGreaterThanOrEqual(32);
    expect(second.equals(first)).toBe(true);
    const file = await stat(path.join(dataDir, 'download-link.secret'));
    expect(file.mode & 0o777).toBe(0o600);
  });
});
