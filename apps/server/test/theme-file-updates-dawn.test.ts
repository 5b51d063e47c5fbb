/**
 * Theme-file updates on real themes (issue 20): Shopify's Dawn 12.0.0, 14.0.0 and 15.3.0 uploaded as releases, a
 * merchant's customised export of one of them upgraded through `POST /theme-file-updates` — 12.0.0 → 14.0.0 and 14.0.0 →
 * 15.3.0, in the same edition and across editions with the store's connection moved. Needs ../shared (CI has it).
 *
 * @one-database: what this file tests is the merge of real themes and theme-check (CPU; no SQL of its own). The runs'
 * paths through the database are tested on both databases by theme-file-updates.test.ts and
 * theme-file-update-jobs.test.ts (vitest.config.ts).
 *
 * @run-first: the suite's longest file (about 45 CPU-s); started last, it was the run's last minute (vitest.config.ts).
 */
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ThemeFileUpdateRun } from '@keyport/shared/contracts/theme-file-updates';
import { THEME_FILE_UPDATE_JOB } from '../src/modules/theme-file-updates/theme-file-updates.service';
import type { Tier } from '@keyport/shared/domain/tiers';
import { parse } from 'jsonc-parser';
import { readZipFiles } from '../src/lib/theme-update/fixtures.test-helpers';
import {
  DAWN_14_MIGRATION_MAP,
  DAWN_CUSTOM,
  HAS_DAWN,
  NO_DAWN_MESSAGE,
  customiseDawn,
  dawnZip,
  type DawnVersion,
} from './helpers/dawn';
import {
  claimNewKey,
  issueThemeToken,
  multipartBody,
  newCustomer,
  newStaff,
  uploadRelease,
  useDataDir,
} from './helpers/releases';
import { themeCheckErrors } from './helpers/theme-check';
import { auth, createTestApp, type TestApp } from './helpers/test-app';
import { expectUnzipTestPasses } from './helpers/theme-zip';

type Json = Record<string, unknown>;
type Files = Map<string, Buffer>;

const dataDir = useDataDir('theme-file-updates-dawn');
let t: TestApp;
const STORE = 'aurora-outfitters.myshopify.com';

/** Files the merchant changed that the merge writes anew; every other file of the new version must be its bytes. */
const MERGED = [
  'config/settings_data.json',
  'templates/index.json',
  'templates/product.json',
  'locales/en.default.json',
  'locales/fr.json',
];

const json = (bytes: Buffer | undefined): Json => parse(bytes!.toString('utf8')) as Json;
const at = (value: unknown, keys: readonly string[]): unknown =>
  keys.reduce<unknown>((node, key) => (node as Json | undefined)?.[key], value);

let files = 0;
const tempFile = (label: string) => path.join(dataDir(), `${label}-${++files}.zip`);

if (!HAS_DAWN) it.skip(NO_DAWN_MESSAGE, () => undefined);

describe.skipIf(!HAS_DAWN)('theme-file updates of real Dawn themes', () => {
  const exports = new Map<DawnVersion, Buffer>();
  const targetErrors = new Map<DawnVersion, Promise<string[]>>();

  beforeAll(async () => {
    t = await createTestApp({ DATA_DIR: dataDir(), PUBLIC_URL: 'https://portal.keyport.test' });
    const staff = await newStaff(t);
    const releases: [Tier, DawnVersion][] = [
      ['LITE', '12.0.0'],
      ['LITE', '14.0.0'],
      ['REGULAR', '14.0.0'],
      ['PRO', '14.0.0'],
      ['PRO', '15.3.0'],
    ];
    for (const [edition, version] of releases) {
      const map: Record<string, string> =
        version === '14.0.0' ? { migration_map: JSON.stringify(DAWN_14_MIGRATION_MAP) } : {};
      const response = await uploadRelease(
        t,
        staff.token,
        { edition, version, ...map },
        { content: await readFile(dawnZip(version)) },
      );
      expect(response.statusCode, response.body).toBe(201);
    }
    for (const version of ['12.0.0', '14.0.0'] as const) {
      exports.set(version, await readFile(await customiseDawn(dawnZip(version), tempFile(`export-${version}`))));
    }
  }, 120_000);

  /** Upgrades `from`'s export with a key of `sourceTier` onto the served release of `targetTier`. */
  async function upgradeDawn(from: DawnVersion, sourceTier: Tier, targetTier: Tier) {
    const person = await newCustomer(t, `dawn-${from}-${sourceTier}-${targetTier}`);
    const source = await claimNewKey(t, person.token, sourceTier);
    await issueThemeToken(t, person.token, source.apiKey);
    const target = targetTier === sourceTier ? source : await claimNewKey(t, person.token, targetTier);
    const body = await multipartBody(
      {
        target_key: target.apiKey,
        source_key: source.apiKey,
        move_connection: target === source ? 'false' : 'true',
      },
      { content: exports.get(from)!, field: 'theme', filename: 'theme_export.zip' },
    );
    const response = await t.app.inject({
      method: 'POST',
      url: '/theme-file-updates',
      headers: { ...auth(person.token), ...body.headers },
      payload: body.payload,
    });
    expect(response.statusCode, response.body).toBe(201);
    const get = (url: string) => t.app.inject({ method: 'GET', url, headers: auth(person.token) });
    // The upload answers at once; the run is a job (ADR 041).
    await t.app.services.jobs.runUntilIdle({ kinds: [THEME_FILE_UPDATE_JOB] });
    const { run } = (await get(`/theme-file-updates/${response.json<{ run: ThemeFileUpdateRun }>().run.id}`)).json<{
      run: ThemeFileUpdateRun;
    }>();
    expect(run.status, JSON.stringify(run.error)).toBe('succeeded');
    const outputPath = tempFile('output');
    await writeFile(outputPath, (await get(run.download_url!)).rawPayload);
    await expectUnzipTestPasses(outputPath);
    const reviewPath = tempFile('review');
    await writeFile(reviewPath, (await get(run.review_url!)).rawPayload);
    return {
      person,
      source,
      target,
      run,
      output: await readZipFiles(outputPath),
      review: await readZipFiles(reviewPath),
      reportJson: (await get(run.report_json_url!)).json<unknown>(),
      reportHtml: (await get(run.report_html_url!)).body,
    };
  }

  type Upgraded = Awaited<ReturnType<typeof upgradeDawn>>;

  /** Each customisation of DAWN_CUSTOM is in the output and reported kept (or moved, or for review: the edits). */
  async function expectEveryCustomisation(result: Upgraded, from: DawnVersion, to: DawnVersion) {
    const { run, output, review } = result;
    const items = run.report!.items;
    const item = (file: string, itemPath?: string) => items.filter((i) => i.file === file && i.path === itemPath);
    const mine = await readZipFiles(await writeTemp(exports.get(from)!));
    const target = await readZipFiles(dawnZip(to));

    // Told by its files, whatever version it states.
    expect(run.report!.detection).toMatchObject({ release: { version: from }, confident: true });
    expect(run.source.version).toBe(from);

    const current = json(output.get('config/settings_data.json')).current as Json;
    for (const [id, value] of Object.entries(DAWN_CUSTOM.settings)) {
      expect(current[id], id).toEqual(value);
      expect(item('config/settings_data.json', `current.${id}`)).toEqual([
        expect.objectContaining({ group: 'kept', yours: value }),
      ]);
    }
    // The colour of the first scheme: Dawn 13 renamed background-1 scheme-1 (14.0.0's migration map).
    expect(at(current, ['color_schemes', 'scheme-1', 'settings', 'background'])).toBe(DAWN_CUSTOM.schemeBackground);
    expect(item('config/settings_data.json', 'current.color_schemes.scheme-1.settings.background')).toEqual([
      from === '12.0.0'
        ? expect.objectContaining({
            group: 'moved',
            from: { path: 'current.color_schemes.background-1.settings.background' },
          })
        : expect.objectContaining({ group: 'kept' }),
    ]);
    expect(at(current, ['blocks', DAWN_CUSTOM.appEmbed.key])).toEqual(DAWN_CUSTOM.appEmbed.value);
    expect(item('config/settings_data.json', `current.blocks.${DAWN_CUSTOM.appEmbed.key}`)).toEqual([
      expect.objectContaining({ group: 'kept', kind: 'block' }),
    ]);

    const index = json(output.get('templates/index.json'));
    expect((index.order as string[])[0]).toBe(DAWN_CUSTOM.homeOrderFirst);
    expect(item('templates/index.json', 'order')).toEqual([expect.objectContaining({ group: 'kept', kind: 'order' })]);
    const { section, block } = DAWN_CUSTOM.removedBlock;
    expect(at(index, ['sections', section, 'blocks', block])).toBeUndefined();
    expect(at(index, ['sections', section, 'block_order'])).not.toContain(block);
    expect(item('templates/index.json', `sections.${section}.blocks.${block}`)).toEqual([
      expect.objectContaining({ group: 'kept', reason: 'removed by you: the block stays removed' }),
    ]);
    const product = json(output.get('templates/product.json'));
    expect(at(product, ['sections', 'main', 'blocks', DAWN_CUSTOM.appBlock.key])).toEqual(DAWN_CUSTOM.appBlock.value);
    expect(at(product, ['sections', 'main', 'block_order'])).toContain(DAWN_CUSTOM.appBlock.key);
    expect(item('templates/product.json', `sections.main.blocks.${DAWN_CUSTOM.appBlock.key}`)).toEqual([
      expect.objectContaining({ group: 'kept', kind: 'block' }),
    ]);

    // Their own files, byte for byte.
    for (const name of [DAWN_CUSTOM.newTemplate, ...DAWN_CUSTOM.addedFiles]) {
      expect(output.get(name)?.equals(mine.get(name)!), name).toBe(true);
      expect(item(name)).toEqual([expect.objectContaining({ group: 'kept', reason: 'added by you, copied as it is' })]);
    }
    // The two core files they edited (the new version changed both): its version in the theme, theirs for review.
    expect([...review.keys()].sort()).toEqual([...DAWN_CUSTOM.editedFiles].sort());
    for (const name of DAWN_CUSTOM.editedFiles) {
      expect(output.get(name)?.equals(target.get(name)!), name).toBe(true);
      expect(review.get(name)?.equals(mine.get(name)!), name).toBe(true);
      const [edited] = item(name);
      expect(edited).toMatchObject({ group: 'review', kind: 'file' });
      expect(edited?.diff).toContain(`--- a/${name}\tthe release you started from`);
      expect(edited?.diff).toMatch(/\n\+.*Harbor/);
    }
    for (const text of DAWN_CUSTOM.texts) {
      expect(at(json(output.get(text.file)), text.path), text.path.join('.')).toBe(text.value);
      expect(item(text.file, text.path.join('.'))).toEqual([
        expect.objectContaining({ group: 'kept', kind: 'text', yours: text.value }),
      ]);
    }
    // Nothing else of theirs, nothing dropped.
    expect(run.report!.summary).toEqual({
      kept: items.filter((i) => i.group === 'kept').length,
      moved: from === '12.0.0' ? 1 : 0,
      review: 2,
      dropped: 0,
    });
    // The report downloads as it is shown, and as a page saying which release it found.
    expect(result.reportJson).toEqual(run.report);
    expect(result.reportHtml).toContain(run.report!.detection.summary);
  }

  /** Every file of the new version the merchant did not change is its bytes exactly; no other file is added. */
  async function expectUntouchedFilesIdentical(output: Files, to: DawnVersion) {
    const target = await readZipFiles(dawnZip(to));
    for (const [name, bytes] of target) {
      if (MERGED.includes(name) || DAWN_CUSTOM.editedFiles.includes(name as never)) continue;
      expect(output.get(name)?.equals(bytes), name).toBe(true);
    }
    const extra = [...output.keys()].filter((name) => !target.has(name)).sort();
    expect(extra).toEqual([DAWN_CUSTOM.newTemplate, ...DAWN_CUSTOM.addedFiles].sort());
  }

  /** theme-check finds no error in the output that the plain new version does not have. */
  async function expectThemeCheckNoWorse(output: Files, to: DawnVersion) {
    if (!targetErrors.has(to)) targetErrors.set(to, themeCheckErrors(await readZipFiles(dawnZip(to))));
    const [outputErrors, baseline] = await Promise.all([themeCheckErrors(output), targetErrors.get(to)!]);
    expect(outputErrors.filter((error) => !baseline.includes(error))).toEqual([]);
  }

  /** The token written into the theme is the target key's current one, for its edition and the store. */
  async function expectTokenValid(result: Upgraded, tier: Tier) {
    const current = json(result.output.get('config/settings_data.json')).current as Json;
    const { tokentheme } = await t.app.services.connect.getToken(result.person.id, result.target.apiKey);
    expect(current.license_token).toBe(tokentheme);
    const claims = await t.app.services.connect.verify(tokentheme!);
    expect(claims).toMatchObject({ tier, kid: result.target.id });
    expect(claims!.domains).toContain(STORE);
  }

  /** The same merchant's run across editions: the same theme as the same-edition run, but for the token. */
  function expectSameFilesButToken(across: Files, same: Files) {
    expect([...across.keys()].sort()).toEqual([...same.keys()].sort());
    for (const [name, bytes] of across) {
      if (name === 'config/settings_data.json') {
        const strip = (files: Files) => {
          const current = json(files.get(name)).current as Json;
          return { ...json(files.get(name)), current: { ...current, license_token: null } };
        };
        expect(strip(across)).toEqual(strip(same));
      } else {
        expect(bytes.equals(same.get(name)!), name).toBe(true);
      }
    }
  }

  describe('12.0.0 → 14.0.0', () => {
    let same: Upgraded;

    it('in the same edition: every customisation kept or reported, the rest the new version’s bytes, theme-check no worse', async () => {
      same = await upgradeDawn('12.0.0', 'LITE', 'LITE');
      expect(same.run).toMatchObject({ target: { edition: 'LITE', version: '14.0.0' }, connection_moved: false });
      await expectEveryCustomisation(same, '12.0.0', '14.0.0');
      await expectUntouchedFilesIdentical(same.output, '14.0.0');
      await expectTokenValid(same, 'LITE');
      await expectThemeCheckNoWorse(same.output, '14.0.0');
    }, 300_000);

    it('across editions (LITE → REGULAR) with the store’s connection moved', async () => {
      const across = await upgradeDawn('12.0.0', 'LITE', 'REGULAR');
      expect(across.run).toMatchObject({
        source: { edition: 'LITE', version: '12.0.0' },
        target: { edition: 'REGULAR', version: '14.0.0' },
        connection_moved: true,
      });
      await expectEveryCustomisation(across, '12.0.0', '14.0.0');
      await expectTokenValid(across, 'REGULAR');
      expectSameFilesButToken(across.output, same.output);
    }, 300_000);
  });

  describe('14.0.0 → 15.3.0', () => {
    let same: Upgraded;

    it('in the same edition: every customisation kept or reported, the rest the new version’s bytes, theme-check no worse', async () => {
      same = await upgradeDawn('14.0.0', 'PRO', 'PRO');
      // Dawn 14.0.0 states 13.0.0: found by its files all the same.
      expect(same.run.report!.detection).toMatchObject({ stated_version: '13.0.0', release: { version: '14.0.0' } });
      await expectEveryCustomisation(same, '14.0.0', '15.3.0');
      await expectUntouchedFilesIdentical(same.output, '15.3.0');
      await expectTokenValid(same, 'PRO');
      await expectThemeCheckNoWorse(same.output, '15.3.0');
    }, 300_000);

    it('across editions (REGULAR → PRO) with the store’s connection moved', async () => {
      const across = await upgradeDawn('14.0.0', 'REGULAR', 'PRO');
      expect(across.run).toMatchObject({
        source: { edition: 'REGULAR', version: '14.0.0' },
        target: { edition: 'PRO', version: '15.3.0' },
        connection_moved: true,
      });
      await expectEveryCustomisation(across, '14.0.0', '15.3.0');
      await expectTokenValid(across, 'PRO');
      expectSameFilesButToken(across.output, same.output);
    }, 300_000);
  });

  /**
   * Issue 20's numbers on main: for this export, a review zip of 121 files, the 48 files 15.3.0 removed copied back as
   * "added by you", and about 5,600 locale texts of 14.0.0 written over 15.3.0's. Now: the 2 edited files, 0, and
   * only the merchant's own texts.
   */
  it('regression: 14.0.0 → 15.3.0 sets aside only the 2 edited files, copies back nothing removed, keeps 15.3.0’s texts', async () => {
    const { output, review } = await upgradeDawn('14.0.0', 'PRO', 'PRO');
    const [old, target] = await Promise.all([readZipFiles(dawnZip('14.0.0')), readZipFiles(dawnZip('15.3.0'))]);
    expect([...review.keys()].sort()).toEqual([...DAWN_CUSTOM.editedFiles].sort());
    const removedByTarget = [...old.keys()].filter((name) => !target.has(name));
    expect(removedByTarget.length).toBeGreaterThan(40);
    expect(removedByTarget.filter((name) => output.has(name))).toEqual([]);
    let changedTexts = 0;
    for (const [name, bytes] of target) {
      if (!name.startsWith('locales/')) continue;
      const before = parse(bytes.toString('utf8')) as unknown;
      const after = parse(output.get(name)!.toString('utf8')) as unknown;
      changedTexts += countDifferentLeaves(before, after);
    }
    expect(changedTexts).toBe(DAWN_CUSTOM.texts.length);
  }, 300_000);
});

async function writeTemp(bytes: Buffer): Promise<string> {
  const file = tempFile('temp');
  await writeFile(file, bytes);
  return file;
}

function countDifferentLeaves(a: unknown, b: unknown): number {
  if (typeof a === 'object' && a !== null && typeof b === 'object' && b !== null) {
    const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
    let count = 0;
    for (const key of keys) count += countDifferentLeaves((a as Json)[key], (b as Json)[key]);
    return count;
  }
  return JSON.stringify(a) === JSON.stringify(b) ? 0 : 1;
}
