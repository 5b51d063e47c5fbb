import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Key } from '@keyport/shared/contracts/keys';
import type { ThemeFileUpdateRun } from '@keyport/shared/contracts/theme-file-updates';
import type { Tier } from '@keyport/shared/domain/tiers';
import { generateThemeZip, type GenerateThemeZipOptions } from '../src/db/demo-theme';
import { DEMO_PREVIOUS_RELEASE, DEMO_RELEASE } from '../src/db/seed-data';
import { releases, themeFileUpdateRuns } from '../src/db/schema';
import { THEME_FILE_UPDATE_JOB } from '../src/modules/theme-file-updates/theme-file-updates.service';
import { auth, createTestApp, type TestApp } from './helpers/test-app';
import {
  claimNewKey,
  issueThemeToken,
  multipartBody,
  newCustomer,
  newStaff,
  uploadRelease,
  useDataDir,
} from './helpers/releases';
import { expectUnzipTestPasses, listEntries, unzipFile, writeZip } from './helpers/theme-zip';
import { themeCheckErrors } from './helpers/theme-check';

const dataDir = useDataDir('theme-file-updates');
let t: TestApp;

type Person = { token: string; id: number };

const previousTheme = (edition: Tier): GenerateThemeZipOptions => ({
  edition,
  version: DEMO_PREVIOUS_RELEASE.version,
  themeName: 'Aurora',
  settingRenames: { ...DEMO_PREVIOUS_RELEASE.theme.settingRenames },
  announcementBar: true,
  featuredSection: { blockTypes: [...DEMO_PREVIOUS_RELEASE.theme.featuredSection.blockTypes] },
});
const currentTheme = (edition: Tier): GenerateThemeZipOptions => ({
  edition,
  version: DEMO_RELEASE.version,
  themeName: 'Aurora',
  featuredSection: { blockTypes: [...DEMO_RELEASE.theme.featuredSection.blockTypes] },
});

let zipCount = 0;
async function zipFile(options: GenerateThemeZipOptions): Promise<string> {
  const file = path.join(dataDir(), `gen-${++zipCount}.zip`);
  await generateThemeZip(file, options);
  return file;
}

/** Every entry of a zip, by name. */
async function readAll(zipPath: string): Promise<Record<string, Buffer>> {
  const files: Record<string, Buffer> = {};
  for (const entry of await listEntries(zipPath)) {
    if (!entry.fileName.endsWith('/')) files[entry.fileName] = await unzipFile(zipPath, entry.fileName);
  }
  return files;
}

/**
 * A merchant's export of the previous version of `edition`: their own colours and header setting, an added snippet,
 * an edited stylesheet (the next version did not change it) and script (it did), and a locale override.
 */
async function merchantExport(edition: Tier, version: 'previous' | 'current' = 'previous'): Promise<Buffer> {
  const base = await zipFile(version === 'previous' ? previousTheme(edition) : currentTheme(edition));
  const files = await readAll(base);
  const settings = JSON.parse(files['config/settings_data.json']!.toString('utf8')) as {
    current: Record<string, unknown>;
  };
  const accent = version === 'previous' ? 'color_primary' : 'color_accent';
  settings.current[accent] = '#ff0044';
  settings.current.color_background = '#fafafa';
  settings.current.no_such_setting = 'merchant value';
  files['config/settings_data.json'] = Buffer.from(JSON.stringify(settings, null, 2));
  // The merchant customised the home page: the template is merged, not replaced.
  const index = JSON.parse(files['templates/index.json']!.toString('utf8')) as {
    sections: Record<string, { settings?: Record<string, unknown> }>;
  };
  if (index.sections.announcement) index.sections.announcement.settings = { text: 'Summer sale' };
  index.sections.featured!.settings = { title: 'Our picks' };
  files['templates/index.json'] = Buffer.from(JSON.stringify(index, null, 2));
  files['snippets/my-badge.liquid'] = Buffer.from('<span class="badge">Merchant badge</span>\n');
  files['assets/theme.css'] = Buffer.concat([files['assets/theme.css']!, Buffer.from('.merchant { color: red; }\n')]);
  files['assets/theme.js'] = Buffer.concat([files['assets/theme.js']!, Buffer.from('// merchant tracking\n')]);
  const locale = JSON.parse(files['locales/en.default.json']!.toString('utf8')) as {
    general: { password_page: { login_form_heading: string } };
  };
  locale.general.password_page.login_form_heading = 'Members only';
  files['locales/en.default.json'] = Buffer.from(JSON.stringify(locale, null, 2));
  const out = path.join(dataDir(), `merchant-${++zipCount}.zip`);
  await writeZip(out, files);
  return readFile(out);
}

async function postUpgrade(
  person: Person,
  fields: { target_key: string; source_key: string; move_connection?: string },
  theme: Buffer | null,
  url = '/theme-file-updates',
) {
  const body = await multipartBody(
    { move_connection: 'false', ...fields },
    theme ? { content: theme, field: 'theme', filename: 'theme_export.zip' } : undefined,
  );
  return t.app.inject({
    method: 'POST',
    url,
    headers: { ...auth(person.token), ...body.headers },
    payload: body.payload,
  });
}

/**
 * The upload answers at once with the run in progress (ADR 041); the job does the work: run it, then read the run
 * back as the page does.
 */
async function finished(
  person: Person,
  response: Awaited<ReturnType<typeof postUpgrade>>,
): Promise<ThemeFileUpdateRun> {
  expect(response.statusCode, response.body).toBe(201);
  const queued = response.json<{ run: ThemeFileUpdateRun }>().run;
  expect(queued).toMatchObject({ status: 'running', report: null, download_url: null });
  expect(queued.phase).not.toBeNull();
  await t.app.services.jobs.runUntilIdle({ kinds: [THEME_FILE_UPDATE_JOB] });
  const read = await t.app.inject({
    method: 'GET',
    url: `/theme-file-updates/${queued.id}`,
    headers: auth(person.token),
  });
  expect(read.statusCode, read.body).toBe(200);
  return read.json<{ run: ThemeFileUpdateRun }>().run;
}

async function keysOf(person: Person): Promise<Key[]> {
  const response = await t.app.inject({ method: 'GET', url: '/keys/', headers: auth(person.token) });
  return response.json<Key[]>();
}

async function download(person: Person, url: string) {
  return t.app.inject({ method: 'GET', url, headers: auth(person.token) });
}

/** Every global setting of the merchant's settings_data is in the output (under its new name), or reported. */
function expectEveryValueAccountedFor(
  merchant: Record<string, unknown>,
  output: Record<string, unknown>,
  run: ThemeFileUpdateRun,
) {
  for (const [id, value] of Object.entries(merchant)) {
    if (id === 'sections' || id === 'content_for_index' || id === 'license_token') continue;
    const inOutput = JSON.stringify(output[id]) === JSON.stringify(value);
    const reported = run.report!.items.some(
      (item) =>
        item.file === 'config/settings_data.json' &&
        [item.path, item.from?.path].includes(`current.${id}`) &&
        JSON.stringify(item.yours) === JSON.stringify(value),
    );
    expect(inOutput || reported, `${id}=${JSON.stringify(value)} is lost`).toBe(true);
  }
}

beforeAll(async () => {
  t = await createTestApp({ DATA_DIR: dataDir(), PUBLIC_URL: 'https://portal.keyport.test' });
  const staff = await newStaff(t);
  for (const edition of ['LITE', 'REGULAR', 'PRO'] as const) {
    for (const options of [previousTheme(edition), currentTheme(edition)]) {
      const content = await readFile(await zipFile(options));
      // The current version comes with its migration map (color_primary → color_accent), as the seed's does.
      const map: Record<string, string> =
        options.version === DEMO_RELEASE.version ? { migration_map: JSON.stringify(DEMO_RELEASE.migrationMap) } : {};
      const uploaded = await uploadRelease(t, staff.token, { edition, version: options.version, ...map }, { content });
      expect(uploaded.statusCode, uploaded.body).toBe(201);
    }
  }
}, 180_000);

describe('releases keep a per-file manifest', () => {
  it('is computed at upload: every file with its sha256', async () => {
    const rows = await t.db.select().from(releases);
    expect(rows).toHaveLength(6);
    for (const row of rows) {
      expect(row.manifest).not.toBeNull();
      expect(Object.keys(row.manifest!)).toContain('config/settings_schema.json');
      for (const hash of Object.values(row.manifest!)) expect(hash).toMatch(/^[0-9a-f]{64}$/);
    }
  });

  it('is backfilled for a release stored before manifests existed', async () => {
    const [row] = await t.db.select().from(releases).where(eq(releases.edition, 'LITE')).limit(1);
    const before = row!.manifest!;
    await t.db.update(releases).set({ manifest: null }).where(eq(releases.id, row!.id));
    const [cleared] = await t.db.select().from(releases).where(eq(releases.id, row!.id));
    expect(await t.app.services.releases.releaseManifest(cleared!)).toEqual(before);
    const [after] = await t.db.select().from(releases).where(eq(releases.id, row!.id));
    expect(after!.manifest).toEqual(before);
  });
});

describe('GET /keys/list_keys_upgrade', () => {
  const list = async (person: Person) => {
    const response = await t.app.inject({ method: 'GET', url: '/keys/list_keys_upgrade', headers: auth(person.token) });
    expect(response.statusCode).toBe(200);
    return response.json<{ upgradable_keys: { key: string; upgrade_status: string }[]; error: null }>();
  };

  it('needs a session', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/keys/list_keys_upgrade' });
    expect(response.statusCode).toBe(401);
  });

  it('lists a REGULAR key for a LITE owner and a PRO key for a LITE or REGULAR owner', async () => {
    const onlyLite = await newCustomer(t, 'only-lite');
    await claimNewKey(t, onlyLite.token, 'LITE');
    expect(await list(onlyLite)).toEqual({ upgradable_keys: [], error: null });

    const liteAndRegular = await newCustomer(t, 'lite-regular');
    await claimNewKey(t, liteAndRegular.token, 'LITE');
    const regular = await claimNewKey(t, liteAndRegular.token, 'REGULAR');
    expect(await list(liteAndRegular)).toEqual({
      upgradable_keys: [{ key: regular.apiKey, upgrade_status: 'Lite to Regular' }],
      error: null,
    });

    const regularAndPro = await newCustomer(t, 'regular-pro');
    await claimNewKey(t, regularAndPro.token, 'REGULAR');
    const pro = await claimNewKey(t, regularAndPro.token, 'PRO');
    expect((await list(regularAndPro)).upgradable_keys).toEqual([
      { key: pro.apiKey, upgrade_status: 'Regular to Pro' },
    ]);

    const onlyPro = await newCustomer(t, 'only-pro');
    await claimNewKey(t, onlyPro.token, 'PRO');
    await claimNewKey(t, onlyPro.token, 'PRO');
    expect((await list(onlyPro)).upgradable_keys).toEqual([]);
  });
});

describe('the paths before the rename, /theme-upgrades… (ADR 044, for one release)', () => {
  it('answer as /theme-file-updates… does: start, read, list, preview, cancel and every download', async () => {
    const person = await newCustomer(t, 'old-paths');
    const lite = await claimNewKey(t, person.token, 'LITE');
    const regular = await claimNewKey(t, person.token, 'REGULAR');
    await issueThemeToken(t, person.token, lite.apiKey);
    await issueThemeToken(t, person.token, regular.apiKey);
    const keys = { target_key: regular.apiKey, source_key: lite.apiKey };
    const run = await finished(
      person,
      await postUpgrade(person, keys, await merchantExport('LITE'), '/theme-upgrades'),
    );
    expect(run, JSON.stringify(run.error)).toMatchObject({
      status: 'succeeded',
      download_url: `/theme-file-updates/${run.id}/theme.zip`,
    });
    const preview = `preview?target_key=${regular.apiKey}&source_key=${lite.apiKey}`;
    for (const rest of [
      `${run.id}`,
      `${run.id}/theme.zip`,
      `${run.id}/report.json`,
      `${run.id}/report.html`,
      `${run.id}/review.zip`,
      `?key=${lite.apiKey}`,
      preview,
    ]) {
      const [now, before] = await Promise.all([
        download(person, `/theme-file-updates${rest.startsWith('?') ? '' : '/'}${rest}`),
        download(person, `/theme-upgrades${rest.startsWith('?') ? '' : '/'}${rest}`),
      ]);
      expect(now.statusCode, rest).toBe(200);
      expect([before.statusCode, before.headers['content-type'], before.headers['content-disposition']], rest).toEqual([
        200,
        now.headers['content-type'],
        now.headers['content-disposition'],
      ]);
      expect(before.rawPayload.equals(now.rawPayload), rest).toBe(true);
    }
    const cancel = (url: string) => t.app.inject({ method: 'POST', url, headers: auth(person.token) });
    const cancelled = await cancel(`/theme-upgrades/${run.id}/cancel`);
    expect([cancelled.statusCode, cancelled.json()]).toEqual([
      409,
      (await cancel(`/theme-file-updates/${run.id}/cancel`)).json(),
    ]);
    expect(cancelled.json<{ code: string }>().code).toBe('run_finished');
    const stranger = await newCustomer(t, 'old-paths-stranger');
    expect((await download(stranger, `/theme-upgrades/${run.id}/theme.zip`)).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: `/theme-upgrades/${run.id}` })).statusCode).toBe(401);
  });
});

describe('POST /theme-file-updates', () => {
  it('LITE → REGULAR with the connection moved: every value kept or reported, the REGULAR key takes the store', async () => {
    const person = await newCustomer(t, 'l2r');
    const lite = await claimNewKey(t, person.token, 'LITE');
    const regular = await claimNewKey(t, person.token, 'REGULAR');
    await issueThemeToken(t, person.token, lite.apiKey);
    const theme = await merchantExport('LITE');

    const preview = await t.app.inject({
      method: 'GET',
      url: `/theme-file-updates/preview?target_key=${regular.apiKey}&source_key=${lite.apiKey}`,
      headers: auth(person.token),
    });
    expect(preview.statusCode, preview.body).toBe(200);
    expect(preview.json()).toMatchObject({
      source: { key: lite.apiKey, edition: 'LITE' },
      target: { key: regular.apiKey, edition: 'REGULAR', version: '4.2.0' },
      kind: 'upgrade',
      source_connected: true,
      source_store: 'aurora-outfitters.myshopify.com',
    });

    const response = await postUpgrade(
      person,
      { target_key: regular.apiKey, source_key: lite.apiKey, move_connection: 'true' },
      theme,
    );
    const run = await finished(person, response);
    expect(run).toMatchObject({
      status: 'succeeded',
      source: { key: lite.apiKey, edition: 'LITE', version: '4.1.0' },
      target: { key: regular.apiKey, edition: 'REGULAR', version: '4.2.0' },
      connection_moved: true,
    });
    // Found by its files: the LITE 4.1.0 release.
    expect(run.report!.detection).toMatchObject({
      release: { edition: 'LITE', version: '4.1.0' },
      confident: true,
      stated_version: '4.1.0',
    });
    // The accent colour moved to its new name by 4.2.0's migration map; the removed announcement bar is reported.
    expect(run.report!.items).toContainEqual(
      expect.objectContaining({
        group: 'moved',
        path: 'current.color_accent',
        from: { path: 'current.color_primary' },
        yours: '#ff0044',
      }),
    );
    expect(run.report!.items).toContainEqual(
      expect.objectContaining({ group: 'dropped', file: 'templates/index.json', path: 'sections.announcement' }),
    );
    expect(run.report!.items).toContainEqual(
      expect.objectContaining({ file: 'snippets/my-badge.liquid', group: 'kept', kind: 'file' }),
    );
    expect(run.report!.items).toContainEqual(
      expect.objectContaining({ file: 'assets/theme.css', group: 'kept', diff: expect.stringContaining('+.merchant') }),
    );
    expect(run.report!.items).toContainEqual(
      expect.objectContaining({
        file: 'assets/theme.js',
        group: 'review',
        diff: expect.stringContaining('+// merchant'),
      }),
    );

    const zip = await download(person, run.download_url!);
    expect(zip.statusCode).toBe(200);
    expect(zip.headers['content-type']).toBe('application/zip');
    const outPath = path.join(dataDir(), `out-${run.id}.zip`);
    await writeFile(outPath, zip.rawPayload);
    await expectUnzipTestPasses(outPath);
    const output = await readAll(outPath);
    await expectThemeCheckClean(output);
    expect(output['snippets/my-badge.liquid']!.toString()).toContain('Merchant badge');
    const outSettings = JSON.parse(output['config/settings_data.json']!.toString()) as {
      current: Record<string, unknown>;
    };
    const inSettings = JSON.parse((await readAll(await writeTemp(theme)))['config/settings_data.json']!.toString()) as {
      current: Record<string, unknown>;
    };
    expectEveryValueAccountedFor(inSettings.current, outSettings.current, run);
    expect(outSettings.current.color_background).toBe('#fafafa');
    expect(outSettings.current.color_accent).toBe('#ff0044');
    expect(outSettings.current).not.toHaveProperty('color_primary');

    // The REGULAR key now holds the store, with the token written into the theme; the LITE key is free.
    const keys = await keysOf(person);
    const regularNow = keys.find((key) => key.api_key === regular.apiKey)!;
    const liteNow = keys.find((key) => key.api_key === lite.apiKey)!;
    expect(regularNow.myshopify).toBe('aurora-outfitters.myshopify.com');
    expect(liteNow.myshopify).toBeNull();
    const { tokentheme } = await t.app.services.connect.getToken(person.id, regular.apiKey);
    expect(outSettings.current.license_token).toBe(tokentheme);
    expect(await t.app.services.connect.verify(tokentheme!)).toMatchObject({ tier: 'REGULAR' });

    // The stylesheet only the merchant changed is theirs in the theme; the script both changed is set aside.
    expect(output['assets/theme.css']!.toString()).toContain('.merchant');
    const review = await download(person, run.review_url!);
    expect(review.statusCode).toBe(200);
    const reviewPath = await writeTemp(review.rawPayload);
    expect(Object.keys(await readAll(reviewPath))).toEqual(['assets/theme.js']);
    expect((await readAll(reviewPath))['assets/theme.js']!.toString()).toContain('// merchant tracking');
    const json = await download(person, run.report_json_url!);
    expect(json.statusCode).toBe(200);
    expect(json.json()).toEqual(run.report);
    const html = await download(person, run.report_html_url!);
    expect(html.statusCode).toBe(200);
    expect(html.headers['content-type']).toContain('text/html');
    expect(html.body).toContain(run.report!.detection.summary);
    expect(html.body).toContain('<details id="review">');

    // Listed for either key, readable again, and nobody else's.
    const listed = await t.app.inject({
      method: 'GET',
      url: `/theme-file-updates?key=${lite.apiKey}`,
      headers: auth(person.token),
    });
    expect(listed.json<{ runs: ThemeFileUpdateRun[] }>().runs.map((r) => r.id)).toEqual([run.id]);
    const stranger = await newCustomer(t, 'stranger-runs');
    for (const url of [
      `/theme-file-updates/${run.id}`,
      run.download_url!,
      run.report_json_url!,
      run.report_html_url!,
    ]) {
      const other = await download(stranger, url);
      expect(other.statusCode, url).toBe(404);
    }
  });

  it('REGULAR → PRO without moving the connection writes the PRO key’s current token and changes no key', async () => {
    const person = await newCustomer(t, 'r2p');
    const regular = await claimNewKey(t, person.token, 'REGULAR');
    const pro = await claimNewKey(t, person.token, 'PRO');
    await issueThemeToken(t, person.token, regular.apiKey);
    const proToken = await issueThemeToken(t, person.token, pro.apiKey);
    const before = await keysOf(person);
    const response = await postUpgrade(
      person,
      { target_key: pro.apiKey, source_key: regular.apiKey },
      await merchantExport('REGULAR'),
    );
    const run = await finished(person, response);
    expect(run).toMatchObject({ status: 'succeeded', connection_moved: false, target: { edition: 'PRO' } });
    expect(await keysOf(person)).toEqual(before);
    const out = await writeTemp((await download(person, run.download_url!)).rawPayload);
    const settings = JSON.parse((await readAll(out))['config/settings_data.json']!.toString()) as {
      current: Record<string, unknown>;
    };
    expect(settings.current.license_token).toBe(proToken);
  });

  it('after a paid LITE → REGULAR upgrade, the same key takes its store’s LITE files to REGULAR', async () => {
    const person = await newCustomer(t, 'upgraded');
    const key = await claimNewKey(t, person.token, 'LITE');
    await issueThemeToken(t, person.token, key.apiKey);
    const changed = await t.db.transaction((tx) =>
      t.app.services.keys.changeTier(
        { keyId: key.id, ownerId: person.id, from: 'LITE', to: 'REGULAR', reason: 'purchase', reference: 'order:1' },
        tx,
      ),
    );
    expect(changed).not.toBeNull();
    const previewOf = async () =>
      (
        await t.app.inject({
          method: 'GET',
          url: `/theme-file-updates/preview?target_key=${key.apiKey}&source_key=${key.apiKey}`,
          headers: auth(person.token),
        })
      ).json<{ source: { edition: Tier }; target: { edition: Tier }; kind: string }>();
    // The page names what the store runs (the LITE files), not the key's new tier.
    expect(await previewOf()).toMatchObject({
      source: { edition: 'LITE' },
      target: { edition: 'REGULAR' },
      kind: 'upgrade',
    });
    const response = await postUpgrade(
      person,
      { target_key: key.apiKey, source_key: key.apiKey },
      await merchantExport('LITE'),
    );
    const run = await finished(person, response);
    expect(run).toMatchObject({ status: 'succeeded', source: { edition: 'LITE' }, target: { edition: 'REGULAR' } });
    // Once the store's files were upgraded, it runs REGULAR: a next run is an update.
    expect(await previewOf()).toMatchObject({ source: { edition: 'REGULAR' }, kind: 'update' });
    // A PRO export was never this key's edition: still refused.
    const other = await postUpgrade(
      person,
      { target_key: key.apiKey, source_key: key.apiKey },
      await merchantExport('PRO'),
    );
    expect(other.statusCode, other.body).toBe(422);
    expect(other.json()).toMatchObject({ code: 'edition_mismatch' });
  });

  it('a same-edition update (PRO 4.1.0 → 4.2.0) changes no key, even when asked to move the connection', async () => {
    const person = await newCustomer(t, 'update');
    const pro = await claimNewKey(t, person.token, 'PRO');
    const token = await issueThemeToken(t, person.token, pro.apiKey);
    const before = await keysOf(person);
    const response = await postUpgrade(
      person,
      { target_key: pro.apiKey, source_key: pro.apiKey, move_connection: 'true' },
      await merchantExport('PRO'),
    );
    const run = await finished(person, response);
    expect(run).toMatchObject({
      status: 'succeeded',
      source: { edition: 'PRO', version: '4.1.0' },
      target: { edition: 'PRO', version: '4.2.0' },
      connection_moved: false,
    });
    expect(await keysOf(person)).toEqual(before);
    expect((await t.app.services.connect.getToken(person.id, pro.apiKey)).tokentheme).toBe(token);
  });

  it("answers 404 for another user's key, as source or target", async () => {
    const person = await newCustomer(t, 'owner-check');
    const stranger = await newCustomer(t, 'stranger');
    const lite = await claimNewKey(t, person.token, 'LITE');
    const theirs = await claimNewKey(t, stranger.token, 'REGULAR');
    await issueThemeToken(t, stranger.token, theirs.apiKey);
    const theme = await merchantExport('LITE');
    for (const fields of [
      { target_key: theirs.apiKey, source_key: lite.apiKey },
      { target_key: lite.apiKey, source_key: theirs.apiKey },
    ]) {
      const response = await postUpgrade(person, fields, theme);
      expect(response.statusCode, response.body).toBe(404);
      expect(response.json()).toMatchObject({ code: 'key_not_found' });
    }
    const preview = await t.app.inject({
      method: 'GET',
      url: `/theme-file-updates/preview?target_key=${theirs.apiKey}&source_key=${lite.apiKey}`,
      headers: auth(person.token),
    });
    expect(preview.statusCode).toBe(404);
    expect(await t.db.select().from(themeFileUpdateRuns).where(eq(themeFileUpdateRuns.userId, person.id))).toEqual([]);
  });

  describe('bad input is a 4xx with {error, code}, and records no run', () => {
    let person: Person;
    let lite: { apiKey: string };
    let regular: { apiKey: string };
    beforeAll(async () => {
      person = await newCustomer(t, 'bad-input');
      lite = await claimNewKey(t, person.token, 'LITE');
      regular = await claimNewKey(t, person.token, 'REGULAR');
      await issueThemeToken(t, person.token, regular.apiKey);
    });
    const send = (theme: Buffer | null, fields: Partial<{ target_key: string; source_key: string }> = {}) =>
      postUpgrade(person, { target_key: regular.apiKey, source_key: lite.apiKey, ...fields }, theme);

    it('refuses a missing file, not a zip, and a zip that is not a theme', async () => {
      expect((await send(null)).statusCode).toBe(400);
      const notZip = await send(Buffer.from('hello, not a zip'));
      expect(notZip.statusCode).toBe(400);
      expect(notZip.json()).toMatchObject({ code: 'invalid_zip' });
      const notTheme = await send(await readFile(await writeZip(path.join(dataDir(), 'x.zip'), { 'a.txt': 'a' })));
      expect(notTheme.statusCode).toBe(400);
      expect(notTheme.json()).toMatchObject({ code: expect.any(String), error: expect.any(String) });
    });

    it.each([
      ['a `..` path', 'aa/evil.liquid', '../evil.liquid'],
      ['an absolute path', 'xetc/passwd', '/etc/passwd'],
    ])('refuses %s', async (_label, safeName, unsafeName) => {
      const files = await readAll(await zipFile(previousTheme('LITE')));
      const zip = await readFile(await writeZip(path.join(dataDir(), 'traversal.zip'), { ...files, [safeName]: 'x' }));
      // The name is patched in place (both headers): no zip library writes such a name.
      const patched = Buffer.from(zip.toString('latin1').replaceAll(safeName, unsafeName), 'latin1');
      const response = await send(patched);
      expect(response.statusCode, response.body).toBe(400);
      expect(response.json()).toMatchObject({ code: 'unsafe_entry_path' });
    });

    it('refuses a zip bomb: an absurd compression ratio, and too many entries', async () => {
      const files = await readAll(await zipFile(previousTheme('LITE')));
      const bomb = await writeZip(path.join(dataDir(), 'bomb.zip'), {
        ...files,
        'assets/zeros.bin': Buffer.alloc(24 * 1024 * 1024),
      });
      const ratio = await send(await readFile(bomb));
      expect(ratio.statusCode, ratio.body).toBe(400);
      expect(ratio.json()).toMatchObject({ code: 'zip_bomb' });

      const many: Record<string, string> = { ...Object.fromEntries(Object.entries(files)) } as never;
      for (let i = 0; i < 20_001; i++) many[`assets/f${i}.txt`] = '';
      const count = await send(await readFile(await writeZip(path.join(dataDir(), 'many.zip'), many)));
      expect(count.statusCode).toBe(400);
      expect(count.json()).toMatchObject({ code: 'too_many_entries' });
    }, 120_000);

    it('refuses a theme of another edition than the source license (422)', async () => {
      const response = await send(await merchantExport('REGULAR'));
      expect(response.statusCode, response.body).toBe(422);
      expect(response.json()).toMatchObject({ code: 'edition_mismatch' });
    });

    it('refuses a target of a lower edition than the source', async () => {
      const response = await send(await merchantExport('REGULAR'), {
        target_key: lite.apiKey,
        source_key: regular.apiKey,
      });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({ code: 'target_lower_than_source' });
    });

    it('records no run: refused before anything is stored', async () => {
      const rows = await t.db.select().from(themeFileUpdateRuns).where(eq(themeFileUpdateRuns.userId, person.id));
      expect(rows).toEqual([]);
    });
  });

  it('two concurrent upgrades of one key: one wins, the other gets 409', async () => {
    const person = await newCustomer(t, 'concurrent');
    const lite = await claimNewKey(t, person.token, 'LITE');
    const regular = await claimNewKey(t, person.token, 'REGULAR');
    await issueThemeToken(t, person.token, regular.apiKey);
    const theme = await merchantExport('LITE');
    // The first run is in progress (as while the engine works): the partial unique index refuses a second.
    const [running] = await t.db
      .insert(themeFileUpdateRuns)
      .values({
        userId: person.id,
        sourceKeyId: lite.id,
        targetKeyId: regular.id,
        sourceApiKey: lite.apiKey,
        targetApiKey: regular.apiKey,
        sourceEdition: 'LITE',
        targetEdition: 'REGULAR',
        targetVersion: '4.2.0',
        expiresAt: new Date(Date.now() + 86_400_000),
      })
      .returning();
    const blocked = await postUpgrade(person, { target_key: regular.apiKey, source_key: lite.apiKey }, theme);
    expect(blocked.statusCode, blocked.body).toBe(409);
    expect(blocked.json()).toMatchObject({ code: 'run_in_progress' });
    // A run left `running` by a process that died no longer blocks the key after 15 minutes.
    await t.db
      .update(themeFileUpdateRuns)
      .set({ createdAt: new Date(Date.now() - 16 * 60 * 1000) })
      .where(eq(themeFileUpdateRuns.id, running!.id));

    // Two at once through the API: exactly one succeeds.
    const both = await Promise.all([
      postUpgrade(person, { target_key: regular.apiKey, source_key: lite.apiKey }, theme),
      postUpgrade(person, { target_key: regular.apiKey, source_key: lite.apiKey }, theme),
    ]);
    const statuses = both.map((r) => r.statusCode).sort();
    expect(statuses[0]).toBe(201);
    // Either the second started while the first ran (409), or after it finished (201): never a 500.
    expect([201, 409]).toContain(statuses[1]);
    const [abandoned] = await t.db.select().from(themeFileUpdateRuns).where(eq(themeFileUpdateRuns.id, running!.id));
    expect(abandoned).toMatchObject({ status: 'failed', errorCode: 'abandoned' });
  });

  it('keeps the files 7 days, then answers 410', async () => {
    const person = await newCustomer(t, 'expiry');
    const pro = await claimNewKey(t, person.token, 'PRO');
    await issueThemeToken(t, person.token, pro.apiKey);
    const response = await postUpgrade(
      person,
      { target_key: pro.apiKey, source_key: pro.apiKey },
      await merchantExport('PRO'),
    );
    const run = await finished(person, response);
    const days = (Date.parse(run.expires_at) - Date.parse(run.created_at)) / 86_400_000;
    expect(days).toBeCloseTo(7, 3);
    await t.db
      .update(themeFileUpdateRuns)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(themeFileUpdateRuns.id, run.id));
    for (const url of [run.download_url!, run.report_json_url!, run.report_html_url!]) {
      const expired = await download(person, url);
      expect(expired.statusCode, url).toBe(410);
      expect(expired.json()).toMatchObject({ code: 'run_expired' });
    }
    const again = await download(person, `/theme-file-updates/${run.id}`);
    expect(again.json<{ run: ThemeFileUpdateRun }>().run).toMatchObject({ download_url: null, report_json_url: null });
  });
});

async function writeTemp(bytes: Buffer): Promise<string> {
  const file = path.join(dataDir(), `tmp-${++zipCount}.zip`);
  await writeFile(file, bytes);
  return file;
}

/** Shopify's theme-check on the output: no errors (severity 0). */
async function expectThemeCheckClean(files: Record<string, Buffer>): Promise<void> {
  expect(await themeCheckErrors(files)).toEqual([]);
}
