import { and, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import type { StaffRelease } from '@keyport/shared/contracts/releases';
import { auditLog, releaseDownloads } from '../src/db/schema';
import { auth, createTestApp, signUp, type TestApp } from './helpers/test-app';
import {
  claimNewKey,
  getReleaseLink,
  issueThemeToken,
  makeThemeZip,
  multipartBody,
  newCustomer,
  newStaff,
  pathOf,
  uploadRelease,
  useDataDir,
} from './helpers/releases';

/** Issue 12: the staff console's releases (list, detail, current choice, audited upload, stores per version). */
const dataDir = useDataDir('staff-releases');
let t: TestApp;
let staff: { token: string; id: number };
let customer: { token: string; id: number };
const ids: Record<string, number> = {};

async function upload(version: string, edition = 'REGULAR', reason = `Publishing ${version}`) {
  const zip = await makeThemeZip(dataDir(), { edition: edition as 'REGULAR', version });
  const response = await uploadRelease(
    t,
    staff.token,
    { edition, version, notes: `Notes of ${version}`, reason },
    {
      content: zip.bytes,
    },
  );
  expect(response.statusCode, response.body).toBe(201);
  return response.json<{ release: { id: number; size_bytes: number } }>().release;
}

const get = (url: string, token = staff.token) => t.app.inject({ method: 'GET', url, headers: auth(token) });
const makeCurrent = (id: number, payload: object = { reason: 'Roll back: 5.1 breaks the cart' }, token = staff.token) =>
  t.app.inject({ method: 'POST', url: `/staff/releases/${id}/make-current`, headers: auth(token), payload });

async function list(edition = 'REGULAR') {
  const response = await get(`/staff/releases?edition=${edition}`);
  expect(response.statusCode, response.body).toBe(200);
  return response.json<{ releases: StaffRelease[]; current_chosen: boolean }>();
}

const auditRows = (action: string, objectId: number) =>
  t.db
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.action, action), eq(auditLog.objectId, String(objectId))));

beforeAll(async () => {
  t = await createTestApp({ DATA_DIR: dataDir() });
  staff = await newStaff(t);
  customer = await newCustomer(t, 'staff-releases');
  ids['5.0.0'] = (await upload('5.0.0')).id;
  ids['5.1.0'] = (await upload('5.1.0')).id;
  ids['6.0.0-beta.1'] = (await upload('6.0.0-beta.1')).id;
});

describe('access', () => {
  it('refuses anonymous callers (401), customers and team members (403)', async () => {
    const team = await signUp(t, 'staff-releases-team@example.com', { role: 'team' });
    const routes = [
      ['GET', '/staff/releases?edition=PRO'],
      ['GET', '/staff/releases/1'],
      ['POST', '/staff/releases/1/make-current'],
    ] as const;
    for (const [method, url] of routes) {
      const payload = method === 'POST' ? { reason: 'Because' } : undefined;
      expect((await t.app.inject({ method, url, payload })).statusCode, url).toBe(401);
      for (const token of [customer.token, team.token]) {
        expect((await t.app.inject({ method, url, payload, headers: auth(token) })).statusCode, url).toBe(403);
      }
    }
  });
});

describe('upload with a reason', () => {
  it('asks for a reason (400, nothing stored) and records exactly one audit row with it', async () => {
    const zip = await makeThemeZip(dataDir(), { edition: 'LITE', version: '1.0.0' });
    const body = await multipartBody({ edition: 'LITE', version: '1.0.0' }, { content: zip.bytes });
    const missing = await t.app.inject({
      method: 'POST',
      url: '/staff/releases',
      headers: { ...auth(staff.token), ...body.headers },
      payload: body.payload,
    });
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toMatchObject({ error: 'reason is required' });
    const short = await uploadRelease(
      t,
      staff.token,
      { edition: 'LITE', version: '1.0.0', reason: ' a ' },
      {
        content: zip.bytes,
      },
    );
    expect(short.statusCode).toBe(400);
    expect(short.json()).toMatchObject({ error: 'Give a reason (at least 3 characters)' });
    expect((await list('LITE')).releases).toEqual([]);

    const stored = await uploadRelease(
      t,
      staff.token,
      { edition: 'LITE', version: '1.0.0', reason: 'First LITE' },
      {
        content: zip.bytes,
      },
    );
    expect(stored.statusCode).toBe(201);
    const id = stored.json<{ release: { id: number } }>().release.id;
    expect(await auditRows('release.published', id)).toEqual([
      expect.objectContaining({
        actorType: 'staff',
        actorId: String(staff.id),
        reason: 'First LITE',
        data: expect.objectContaining({ edition: 'LITE', version: '1.0.0' }),
      }),
    ]);
  });
});

describe('upload with a migration map (issue 20)', () => {
  const send = async (version: string, migrationMap: string, options = {}) => {
    const zip = await makeThemeZip(dataDir(), { edition: 'PRO', version, ...options });
    return uploadRelease(
      t,
      staff.token,
      { edition: 'PRO', version, reason: `Publishing ${version}`, migration_map: migrationMap },
      { content: zip.bytes },
    );
  };

  it('stores a map whose new names are all in the release, and shows it on the release', async () => {
    const map = {
      settings: { color_primary: 'color_accent' },
      sections: { banner: { type: 'featured', settings: { heading: 'title' }, blocks: { line: { type: 'quote' } } } },
    };
    const response = await send('7.0.0', `// renames since 6.x\n${JSON.stringify(map)}`, {
      featuredSection: { blockTypes: ['text', 'quote'] },
    });
    expect(response.statusCode, response.body).toBe(201);
    const id = response.json<{ release: { id: number } }>().release.id;
    const detail = await get(`/staff/releases/${id}`);
    expect(detail.json()).toMatchObject({ migration_map: map });
    expect(await auditRows('release.published', id)).toEqual([
      expect.objectContaining({ data: expect.objectContaining({ migration_map: true }) }),
    ]);
    const without = await get(`/staff/releases/${ids['5.0.0']}`);
    expect(without.json()).toMatchObject({ migration_map: null });
  });

  it.each([
    ['not JSON', '{ "settings": ', /^The migration map is not valid JSON/],
    ['of another shape', '{"settings": {"a": 1}}', /^The migration map is not valid: .* \(at settings\.a\)\.$/],
    ['with an unknown member', '{"renames": {}}', /^The migration map is not valid/],
    ['renaming nothing', '{}', 'The migration map does not fit this release: The migration map renames nothing.'],
    [
      'naming a setting the release does not have',
      '{"settings": {"color_primary": "color_primary_2"}}',
      'The migration map does not fit this release: settings: "color_primary" → "color_primary_2": the release has no setting "color_primary_2".',
    ],
    [
      'naming a section type the release does not have',
      '{"sections": {"hero": {"type": "hero-banner"}}}',
      'The migration map does not fit this release: sections.hero: the release has no section type "hero-banner" (sections/hero-banner.liquid).',
    ],
    [
      'renaming two settings to one',
      '{"settings": {"a": "color_accent", "b": "color_accent"}}',
      'The migration map does not fit this release: settings: "a" and "b" are both renamed to "color_accent".',
    ],
  ])('refuses a map %s (400 invalid_migration_map) and stores nothing', async (_label, map, message) => {
    const before = (await list('PRO')).releases.length;
    const response = await send('7.1.0', map);
    expect(response.statusCode, response.body).toBe(400);
    const error = typeof message === 'string' ? message : expect.stringMatching(message);
    expect(response.json()).toMatchObject({ code: 'invalid_migration_map', error });
    expect((await list('PRO')).releases).toHaveLength(before);
  });
});

describe('GET /staff/releases', () => {
  it("lists an edition's versions newest first; with none chosen the newest stable version is current", async () => {
    const { releases, current_chosen } = await list();
    expect(current_chosen).toBe(false);
    expect(releases.map((release) => [release.version, release.current])).toEqual([
      ['6.0.0-beta.1', false],
      ['5.1.0', true],
      ['5.0.0', false],
    ]);
    expect(releases[1]).toEqual({
      id: ids['5.1.0'],
      edition: 'REGULAR',
      version: '5.1.0',
      notes: 'Notes of 5.1.0',
      theme_name: 'Aurora',
      size_bytes: expect.any(Number),
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      current: true,
      stores: 0,
    });
    expect((await get('/staff/releases?edition=GOLD')).statusCode).toBe(400);
    expect((await get('/staff/releases')).statusCode).toBe(400);
  });
});

describe('GET /staff/releases/:id', () => {
  it('answers the per-file manifest in path order; 404 for an unknown release', async () => {
    const response = await get(`/staff/releases/${ids['5.0.0']}`);
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json<{ release: StaffRelease; manifest: { path: string; sha256: string }[] }>();
    expect(body.release).toMatchObject({ id: ids['5.0.0'], version: '5.0.0', current: false });
    const paths = body.manifest.map((file) => file.path);
    expect(paths).toContain('layout/theme.liquid');
    expect(paths).toEqual([...paths].sort((a, b) => a.localeCompare(b)));
    expect(body.manifest.every((file) => /^[0-9a-f]{64}$/.test(file.sha256))).toBe(true);
    const missing = await get('/staff/releases/999999');
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toMatchObject({ code: 'release_not_found' });
  });
});

describe('POST /staff/releases/:id/make-current', () => {
  it('changes what customers download, records one audit row with the reason, and shows which stores run it', async () => {
    const key = await claimNewKey(t, customer.token, 'REGULAR');
    const themeToken = await issueThemeToken(t, customer.token, key.apiKey);
    expect((await getReleaseLink(t, customer.token, key.apiKey)).version).toBe('5.1.0');

    const response = await makeCurrent(ids['5.0.0']!);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toMatchObject({ release: { id: ids['5.0.0'], version: '5.0.0', current: true } });
    expect(await auditRows('release.made_current', ids['5.0.0']!)).toEqual([
      expect.objectContaining({
        actorType: 'staff',
        actorId: String(staff.id),
        reason: 'Roll back: 5.1 breaks the cart',
        data: { edition: 'REGULAR', version: '5.0.0', previous_release_id: null },
      }),
    ]);

    const listed = await list();
    expect(listed.current_chosen).toBe(true);
    expect(listed.releases.filter((release) => release.current).map((release) => release.version)).toEqual(['5.0.0']);

    // The customer now gets 5.0.0, and the download is recorded against the key's store.
    const link = await getReleaseLink(t, customer.token, key.apiKey);
    expect(link.version).toBe('5.0.0');
    const download = await t.app.inject({ method: 'GET', url: pathOf(link.download_link) });
    expect(download.statusCode).toBe(200);
    const detail = await get(`/staff/releases/${ids['5.0.0']}`);
    expect(detail.json()).toMatchObject({
      release: { stores: 1 },
      stores: [
        {
          key_id: key.id,
          store: expect.stringContaining('aurora-outfitters'),
          seen_at: expect.any(String),
          seen_by: 'download',
        },
      ],
    });

    // Back to 5.1.0: the store still runs 5.0.0 until it downloads again.
    expect((await makeCurrent(ids['5.1.0']!, { reason: 'Cart fixed in 5.1' })).statusCode).toBe(200);
    expect(await auditRows('release.made_current', ids['5.1.0']!)).toEqual([
      expect.objectContaining({
        reason: 'Cart fixed in 5.1',
        data: expect.objectContaining({ previous_release_id: ids['5.0.0'] }),
      }),
    ]);
    const newer = await getReleaseLink(t, customer.token, key.apiKey);
    expect(newer.version).toBe('5.1.0');
    expect((await list()).releases.map((release) => [release.version, release.stores])).toEqual([
      ['6.0.0-beta.1', 0],
      ['5.1.0', 0],
      ['5.0.0', 1],
    ]);
    expect((await t.app.inject({ method: 'GET', url: pathOf(newer.download_link) })).statusCode).toBe(200);
    expect((await list()).releases.map((release) => [release.version, release.stores])).toEqual([
      ['6.0.0-beta.1', 0],
      ['5.1.0', 1],
      ['5.0.0', 0],
    ]);
    const rows = await t.db.select().from(releaseDownloads).where(eq(releaseDownloads.keyId, key.id));
    expect(rows.map((row) => [row.version, row.via])).toEqual([
      ['5.0.0', 'link'],
      ['5.1.0', 'link'],
    ]);

    // Issue 13: the store's theme checks its license and reports what it runs. The owner put 5.0.0 back on the store:
    // its check-in is newer evidence than the download, so the console shows the store on 5.0.0, seen by check-in.
    // A check-in from a domain the token does not cover, or of a version that is no release, moves nothing.
    const validate = (domain: string, version: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/licenses/validate',
        payload: { token: themeToken, domain, theme_version: version, theme_edition: 'REGULAR' },
      });
    expect((await validate('aurora-outfitters.com', '5.0.0')).json()).toMatchObject({ code: 'VALID' });
    expect((await validate('someone-else.com', '6.0.0-beta.1')).json()).toMatchObject({ code: 'DOMAIN_MISMATCH' });
    expect((await validate('aurora-outfitters.com', '9.9.9')).json()).toMatchObject({ code: 'VALID' });
    await t.app.services.checkinFlusher.flush();
    expect((await list()).releases.map((release) => [release.version, release.stores])).toEqual([
      ['6.0.0-beta.1', 0],
      ['5.1.0', 0],
      ['5.0.0', 1],
    ]);
    expect((await get(`/staff/releases/${ids['5.0.0']}`)).json()).toMatchObject({
      stores: [{ key_id: key.id, store: 'aurora-outfitters.com', seen_by: 'check-in' }],
    });
  });

  it('a pre-release can be made current on purpose', async () => {
    expect((await makeCurrent(ids['6.0.0-beta.1']!, { reason: 'Beta for everyone' })).statusCode).toBe(200);
    const key = await claimNewKey(t, customer.token, 'REGULAR');
    expect((await getReleaseLink(t, customer.token, key.apiKey)).version).toBe('6.0.0-beta.1');
    expect((await makeCurrent(ids['5.1.0']!, { reason: 'Beta over' })).statusCode).toBe(200);
  });

  it('asks for a reason, answers 404 for an unknown release, and writes nothing then', async () => {
    const before = await t.db.select().from(auditLog).where(eq(auditLog.action, 'release.made_current'));
    const noReason = await makeCurrent(ids['5.0.0']!, {});
    expect(noReason.statusCode).toBe(400);
    const shortReason = await makeCurrent(ids['5.0.0']!, { reason: 'ok' });
    expect(shortReason.statusCode).toBe(400);
    expect(shortReason.json()).toMatchObject({ error: expect.stringContaining('Give a reason') });
    expect((await makeCurrent(999999, { reason: 'No such release' })).statusCode).toBe(404);
    const after = await t.db.select().from(auditLog).where(eq(auditLog.action, 'release.made_current'));
    expect(after).toHaveLength(before.length);
    expect((await list()).releases.find((release) => release.current)?.version).toBe('5.1.0');
  });

  it('two staff choosing at once: both answer, one release is current, one audit row each', async () => {
    const before = await t.db.select().from(auditLog).where(eq(auditLog.action, 'release.made_current'));
    const responses = await Promise.all([
      makeCurrent(ids['5.0.0']!, { reason: 'Choice A' }),
      makeCurrent(ids['6.0.0-beta.1']!, { reason: 'Choice B' }),
      makeCurrent(ids['5.0.0']!, { reason: 'Choice C' }),
    ]);
    expect(responses.map((response) => response.statusCode)).toEqual([200, 200, 200]);
    const current = (await list()).releases.filter((release) => release.current);
    expect(current).toHaveLength(1);
    const after = await t.db.select().from(auditLog).where(eq(auditLog.action, 'release.made_current'));
    expect(after.length - before.length).toBe(3);
  });
});
