import { mkdir, readFile, symlink, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { themeCheckRun } from '@shopify/theme-check-node';
import type { MigrationMap } from '@keyport/shared/contracts/migration-map';
import type { ReportItem } from '@keyport/shared/contracts/theme-file-updates';
import type { Tier } from '@keyport/shared/domain/tiers';
import { describe, expect, it } from 'vitest';
import { generateThemeZip } from '../../db/demo-theme';
import { expectUnzipTestPasses, run, useTempDir, writeZip } from '../../../test/helpers/theme-zip';
import { computeThemeManifest } from '../theme-zip/manifest';
import { DEFAULT_THEME_ZIP_LIMITS } from '../theme-zip/scan';
import type { KnownRelease } from './detect-release';
import {
  MERCHANT_SETTINGS,
  OLD_EDITED_FILE,
  OLD_VENDOR_FILE,
  buildFixture,
  deriveZip,
  readZipFiles,
  type Fixture,
} from './fixtures.test-helpers';
import { diffJson, getPath, jsonEqual, pathText } from './json-changes';
import { parseThemeJson } from './json-text';
import { reportToHtml } from './report-html';
import { ThemeUpdateError, readThemeInfo, reviewZipPathFor, updateTheme, type ThemeUpdateInput } from './index';

const tempPath = useTempDir('theme-update');
const TOKEN = 'tok_regular_123';

async function known(path: string, edition: Tier, version: string, id: number): Promise<KnownRelease> {
  return {
    id,
    edition,
    version,
    themeName: 'Aurora',
    manifest: await computeThemeManifest(path, DEFAULT_THEME_ZIP_LIMITS),
    zipPath: async () => path,
  };
}

/** The stored releases of a fixture: the target (REGULAR 2.0.0) and the original (LITE 1.0.0), newest first. */
async function releasesOf(fixture: Fixture): Promise<KnownRelease[]> {
  return [await known(fixture.target, 'REGULAR', '2.0.0', 2), await known(fixture.original, 'LITE', '1.0.0', 1)];
}

async function upgrade(fixture: Fixture, overrides: Partial<ThemeUpdateInput> = {}) {
  const outputPath = overrides.outputPath ?? tempPath('out.zip');
  const result = await updateTheme({
    merchantZipPath: fixture.merchant,
    releases: overrides.releases ?? (await releasesOf(fixture)),
    target: { zipPath: fixture.target },
    token: TOKEN,
    ...overrides,
    outputPath,
  });
  return { result, report: result.report, outputPath };
}

const json = (bytes: Buffer | undefined, name = 'file') => {
  if (bytes === undefined) throw new Error(`${name} is missing`);
  return parseThemeJson(bytes.toString('utf8'), name) as Record<string, unknown>;
};
const itemsAt = (items: ReportItem[], file: string, path?: string) =>
  items.filter((item) => item.file === file && item.path === path);

async function expectUpgradeError(promise: Promise<unknown>, code: string): Promise<void> {
  const error = await promise.then(
    () => null,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(ThemeUpdateError);
  expect(error).toMatchObject({ code });
}

describe('updateTheme: LITE 1.0.0 store → REGULAR 2.0.0, three ways', () => {
  it('tells the release by its files, not by the version the theme states', async () => {
    const fixture = await buildFixture(tempPath);
    const stated = await deriveZip(fixture.merchant, tempPath('stated.zip'), {
      'config/settings_schema.json': (await readZipFiles(fixture.merchant))
        .get('config/settings_schema.json')!
        .toString()
        .replace('"theme_version": "1.0.0"', '"theme_version": "0.9.0"'),
    });
    const { report, result } = await upgrade({ ...fixture, merchant: stated });
    const exportFiles = (await readZipFiles(stated)).size;
    expect(report.detection).toMatchObject({
      release: { edition: 'LITE', version: '1.0.0', theme_name: 'Aurora' },
      confident: true,
      stated_version: '0.9.0',
      export_files: exportFiles,
    });
    expect(report.detection.summary).toBe(
      `${report.detection.identical_files} of ${report.detection.release_files} files identical to Aurora 1.0.0 (LITE). ` +
        'Your theme states version 0.9.0; its files are 1.0.0.',
    );
    expect(report.warnings).toEqual([]);
    expect(result.source).toEqual({ edition: 'LITE', version: '0.9.0', themeName: 'Aurora' });
    expect(result.target).toEqual({ edition: 'REGULAR', version: '2.0.0', themeName: 'Aurora' });
  });

  it('files: untouched → the new version’s bytes; dropped by it → gone; added → copied; edited → kept or set aside', async () => {
    const fixture = await buildFixture(tempPath);
    const { report, result, outputPath } = await upgrade(fixture);
    const [output, merchant, target] = await Promise.all([
      readZipFiles(outputPath),
      readZipFiles(fixture.merchant),
      readZipFiles(fixture.target),
    ]);
    // Every file of the new version the merchant did not change is its bytes exactly (settings get the token).
    const mergedJson = new Set(['config/settings_data.json', 'templates/index.json', 'locales/en.default.json']);
    for (const [name, bytes] of target) {
      if (mergedJson.has(name) || name === 'assets/theme.css') continue;
      expect(output.get(name)?.equals(bytes), name).toBe(true);
    }
    // The vendor file 2.0.0 dropped is gone; the merchant's edit of the other one is set aside for review.
    expect(output.has(OLD_VENDOR_FILE)).toBe(false);
    expect(output.has(OLD_EDITED_FILE)).toBe(false);
    expect(report.vendor.removed).toEqual([OLD_VENDOR_FILE]);
    // Their own files, byte for byte.
    for (const name of ['assets/custom.css', 'snippets/promo.liquid']) {
      expect(output.get(name)?.equals(merchant.get(name)!), name).toBe(true);
    }
    // Their own template naming a section type the new version lacks (Shopify would refuse the theme): in the theme
    // without that section, whole in the review zip.
    expect(json(output.get('templates/page.contact.json'))).toEqual({
      sections: { main: { type: 'header', settings: { sticky: true } } },
      order: ['main'],
    });
    expect(itemsAt(report.items, 'templates/page.contact.json')).toEqual([
      expect.objectContaining({ group: 'review', kind: 'file' }),
    ]);
    expect(itemsAt(report.items, 'templates/page.contact.json', 'sections.gone')).toEqual([
      expect.objectContaining({ group: 'dropped', reason: 'the new version has no section type "testimonials"' }),
    ]);
    // theme.css: only the merchant changed it → theirs stays, with the diff in the report.
    expect(output.get('assets/theme.css')?.equals(merchant.get('assets/theme.css')!)).toBe(true);
    const css = itemsAt(report.items, 'assets/theme.css')[0];
    expect(css).toMatchObject({ group: 'kept', kind: 'file' });
    expect(css?.diff).toContain('+/* edited by the merchant */');
    // theme.js: both changed → the new version’s in the theme, theirs in the review zip, the diff against 1.0.0.
    expect(output.get('assets/theme.js')?.equals(target.get('assets/theme.js')!)).toBe(true);
    const js = itemsAt(report.items, 'assets/theme.js')[0];
    expect(js).toMatchObject({ group: 'review', kind: 'file' });
    expect(js?.diff).toMatch(
      /^--- a\/assets\/theme\.js\tthe release you started from\n\+\+\+ b\/assets\/theme\.js\tyour theme/,
    );
    expect(js?.diff).toContain('+// edited by the merchant');
    const aside = ['assets/theme.js', OLD_EDITED_FILE, 'templates/page.contact.json'];
    expect(result.reviewFiles.sort()).toEqual(aside);
    const review = await readZipFiles(reviewZipPathFor(outputPath));
    expect([...review.keys()].sort()).toEqual(aside);
    expect(review.get(OLD_EDITED_FILE)?.equals(merchant.get(OLD_EDITED_FILE)!)).toBe(true);
    expect(result.outputEntries).toBe(output.size);
    await expectUnzipTestPasses(outputPath);
  });

  it('settings: only the merchant’s changes, checked against the new schema; the token written; the old one nowhere', async () => {
    const fixture = await buildFixture(tempPath);
    const { report, outputPath } = await upgrade(fixture);
    const settings = json((await readZipFiles(outputPath)).get('config/settings_data.json'));
    expect(settings.current).toMatchObject({
      color_accent: '#ff0000',
      custom_note: 'Free shipping over $50',
      license_token: TOKEN,
    });
    expect(settings.current).toMatchObject({ sections: { header: { type: 'header', settings: { sticky: false } } } });
    const dropped = Object.fromEntries(
      report.items
        .filter((item) => item.file === 'config/settings_data.json' && item.group === 'dropped')
        .map((item) => [item.path, [item.yours, item.reason]]),
    );
    expect(dropped).toEqual({
      'current.color_background': ['#000000', 'the new version has no setting "color_background" here'],
      'current.layout_style': ['list', 'not one of the options'],
      'current.columns': [4, 'above the maximum 3'],
      'current.show_badges': [false, 'not text'],
    });
    expect(JSON.stringify(report)).not.toContain('old-token-of-the-lite-key');
    // Shopify's comment header is the new version's file's (it has none); the merchant's BOM is not carried.
    expect((await readZipFiles(outputPath)).get('config/settings_data.json')?.toString().startsWith('{')).toBe(true);
  });

  it('a migration map moves a renamed setting instead of dropping it', async () => {
    const fixture = await buildFixture(tempPath);
    const map: MigrationMap = { settings: { color_background: 'color_page' } };
    const seen: [string | null, string | null][] = [];
    const { report, outputPath } = await upgrade(fixture, {
      migrationsFrom: (base, stated) => {
        seen.push([base?.version ?? null, stated]);
        return [map];
      },
    });
    expect(seen).toEqual([['1.0.0', '1.0.0']]);
    const settings = json((await readZipFiles(outputPath)).get('config/settings_data.json'));
    expect(settings.current).toMatchObject({ color_page: '#000000' });
    expect(itemsAt(report.items, 'config/settings_data.json', 'current.color_page')).toEqual([
      expect.objectContaining({
        group: 'moved',
        from: { path: 'current.color_background' },
        reason: 'the new version calls the setting "color_background" "color_page"',
        yours: '#000000',
      }),
    ]);
  });

  it('templates and texts: the merchant’s changes written into the new version’s files, what has no place reported', async () => {
    const fixture = await buildFixture(tempPath);
    const { report, outputPath } = await upgrade(fixture);
    const output = await readZipFiles(outputPath);
    expect(json(output.get('templates/index.json'))).toEqual({
      sections: {
        hero: { type: 'header', settings: { sticky: true } },
        featured: {
          type: 'featured',
          settings: { title: 'Our picks' },
          blocks: {
            'text-1': { type: 'text', settings: { heading: 'Hello' } },
            'quote-2': { type: 'quote', settings: { heading: 'quote heading' } },
          },
          block_order: ['text-1', 'quote-2'],
        },
      },
      order: ['featured', 'hero'],
    });
    const dropped = report.items.filter((item) => item.file === 'templates/index.json' && item.group === 'dropped');
    expect(dropped.map((item) => [item.path, item.reason])).toEqual(
      expect.arrayContaining([
        ['sections.featured.settings.colour_mode', 'the new version has no setting "colour_mode" here'],
        ['sections.featured.blocks.image-2', 'the new version has no block type "image" here'],
        ['sections.banner', 'the new version has no section type "legacy-banner"'],
      ]),
    );
    expect(json(output.get('locales/en.default.json'))).toEqual({
      general: { password_page: { login_form_heading: 'Come on in' }, custom: { greeting: 'Howdy' } },
    });
    expect(itemsAt(report.items, 'locales/en.default.json', 'general.custom.greeting')).toEqual([
      expect.objectContaining({ group: 'kept', kind: 'text', reason: 'your own text' }),
    ]);
  });

  it('nothing is lost silently: every file and every JSON change of the merchant is in the theme, set aside or reported', async () => {
    const fixture = await buildFixture(tempPath);
    const { report, outputPath } = await upgrade(fixture);
    await expectNothingLost(fixture, report.items, outputPath);
  });

  it('accepts a merchant export whose theme sits in a folder; the output is at the zip root', async () => {
    const fixture = await buildFixture(tempPath, 'aurora-lite/');
    const { report, outputPath } = await upgrade(fixture);
    expect(report.detection.release).toMatchObject({ version: '1.0.0' });
    const names = [...(await readZipFiles(outputPath)).keys()];
    expect(names).toContain('assets/custom.css');
    expect(names.every((name) => !name.startsWith('aurora-lite/'))).toBe(true);
  });

  it('reports progress by phase and stops when aborted, writing nothing', async () => {
    const fixture = await buildFixture(tempPath);
    const phases: string[] = [];
    await upgrade(fixture, { onProgress: ({ phase }) => void (phases.at(-1) === phase || phases.push(phase)) });
    expect(phases).toEqual(['detect', 'merge', 'write']);
    const controller = new AbortController();
    const outputPath = tempPath('aborted.zip');
    const aborted = upgrade(fixture, {
      outputPath,
      signal: controller.signal,
      onProgress: ({ phase }) => {
        if (phase === 'merge') controller.abort();
      },
    });
    await expect(aborted).rejects.toThrow(/aborted/i);
    await expect(readFile(outputPath)).rejects.toThrow(/ENOENT/);
  });

  it('writes a zip that passes unzip -t and Shopify theme-check with no errors', async () => {
    const { outputPath } = await upgrade(await buildFixture(tempPath));
    await expectUnzipTestPasses(outputPath);
    await expectThemeCheckClean(outputPath);
  });
});

describe('updateTheme: no release close enough — two ways', () => {
  it('says so, sets aside what differs and never claims a release’s file as the merchant’s', async () => {
    const fixture = await buildFixture(tempPath);
    // A stored release of the same files that shares only the removed vendor snippet with the export byte for byte.
    const original = await known(fixture.original, 'LITE', '1.0.0', 1);
    const manifest = Object.fromEntries(Object.keys(original.manifest).map((name) => [name, '0'.repeat(64)]));
    const sparse: KnownRelease = {
      ...original,
      manifest: { ...manifest, [OLD_VENDOR_FILE]: original.manifest[OLD_VENDOR_FILE]! },
    };
    const { report, result, outputPath } = await upgrade(fixture, { releases: [sparse] });
    expect(report.detection).toMatchObject({
      release: null,
      confident: false,
      identical_files: 1,
      release_files: Object.keys(manifest).length,
    });
    expect(report.detection.summary).toMatch(
      /^No release matches your theme closely enough \(the closest: 1 of \d+ files/,
    );
    expect(report.detection.release).toBeNull();
    expect(report.warnings[0]).toMatch(/^We could not tell which release your theme started from/);
    const output = await readZipFiles(outputPath);
    const target = await readZipFiles(fixture.target);
    // The old vendor file (a release has it, byte for byte) is not "added by you"; the merchant's own file is.
    expect(output.has(OLD_VENDOR_FILE)).toBe(false);
    expect(output.has('snippets/promo.liquid')).toBe(true);
    // Files that differ from the new version are the new version's in the theme, the merchant's set aside.
    expect(output.get('assets/theme.css')?.equals(target.get('assets/theme.css')!)).toBe(true);
    expect(result.reviewFiles).toEqual(
      expect.arrayContaining([
        'assets/theme.css',
        'assets/theme.js',
        'templates/index.json',
        'locales/en.default.json',
      ]),
    );
    expect(json(output.get('locales/en.default.json'))).toEqual(json(target.get('locales/en.default.json')));
    // The store's settings are still its own (where they fit).
    expect(json(output.get('config/settings_data.json')).current).toMatchObject({ color_accent: '#ff0000' });
  });
});

describe('updateTheme: refused input', () => {
  it('refuses a theme of another edition than the source license', async () => {
    await expectUpgradeError(
      upgrade(await buildFixture(tempPath), { expectedSourceEdition: 'PRO' }),
      'edition_mismatch',
    );
  });

  it('refuses another theme', async () => {
    const fixture = await buildFixture(tempPath);
    const other = tempPath('other.zip');
    await generateThemeZip(other, { edition: 'LITE', version: '1.0.0', themeName: 'Borealis' });
    await expectUpgradeError(upgrade({ ...fixture, merchant: other }), 'theme_mismatch');
  });

  it('refuses a zip that is not a theme, a symbolic link and a zip bomb, and writes nothing', async () => {
    const fixture = await buildFixture(tempPath);
    const outputPath = tempPath('never.zip');
    const notTheme = await writeZip(tempPath('photos.zip'), { 'photo.jpg': 'x' });
    await expectUpgradeError(upgrade({ ...fixture, merchant: notTheme }, { outputPath }), 'not_a_theme');
    const dir = tempPath('linked');
    for (const [name, bytes] of await readZipFiles(fixture.merchant)) {
      await mkdir(dirname(join(dir, name)), { recursive: true });
      await writeFile(join(dir, name), bytes);
    }
    await symlink('/etc/passwd', join(dir, 'snippets', 'passwd.liquid'));
    await run('zip', ['-q', '-r', '-y', 'linked.zip', '.'], { cwd: dir });
    await expectUpgradeError(
      upgrade({ ...fixture, merchant: join(dir, 'linked.zip') }, { outputPath }),
      'unsupported_entry_type',
    );
    const limits = { maxBytes: 10 * 1024 * 1024, maxEntries: 1000, maxUncompressedBytes: 64 * 1024 };
    const bomb = await deriveZip(fixture.merchant, tempPath('bomb.zip'), {
      'assets/zeros.bin': Buffer.alloc(1024 * 1024),
    });
    await expectUpgradeError(upgrade({ ...fixture, merchant: bomb }, { outputPath, limits }), 'uncompressed_too_large');
    await expect(readFile(outputPath)).rejects.toThrow(/ENOENT/);
  });

  it('refuses an export with a corrupt file (every file is checked when it is hashed)', async () => {
    const fixture = await buildFixture(tempPath);
    const marker = Buffer.from('merchant-added-binary-'.repeat(4));
    const withBin = await deriveZip(fixture.merchant, tempPath('with-bin.zip'), { 'assets/added.bin': marker });
    const bytes = await readFile(withBin);
    const at = bytes.indexOf(marker);
    expect(at).toBeGreaterThan(0);
    bytes[at + 3] = (bytes[at + 3] ?? 0) ^ 0xff;
    const corrupt = tempPath('corrupt.zip');
    await writeFile(corrupt, bytes);
    const outputPath = tempPath('not-written.zip');
    await expectUpgradeError(upgrade({ ...fixture, merchant: corrupt }, { outputPath }), 'invalid_zip');
    await expect(readFile(outputPath)).rejects.toThrow(/ENOENT/);
  });

  it('refuses a template that is not JSON even by Shopify’s rules', async () => {
    const fixture = await buildFixture(tempPath);
    const broken = await deriveZip(fixture.merchant, tempPath('broken.zip'), {
      'templates/index.json': '{ "sections": ',
    });
    await expectUpgradeError(upgrade({ ...fixture, merchant: broken }), 'invalid_theme_json');
  });
});

describe('readThemeInfo and reportToHtml', () => {
  it('reads edition, version and name', async () => {
    const fixture = await buildFixture(tempPath);
    await expect(readThemeInfo(fixture.target)).resolves.toEqual({
      edition: 'REGULAR',
      version: '2.0.0',
      themeName: 'Aurora',
    });
    const named = tempPath('named.zip');
    await generateThemeZip(named, { edition: 'LITE', version: '3.1.0', themeName: 'Aurora Pro', folder: 'x' });
    await expect(readThemeInfo(named)).resolves.toEqual({ edition: 'PRO', version: '3.1.0', themeName: 'Aurora Pro' });
  });

  it('renders the counts first, each group behind a disclosure, escaped and self-contained', async () => {
    const fixture = await buildFixture(tempPath);
    const evil = await deriveZip(fixture.merchant, tempPath('evil.zip'), {
      'config/settings_data.json': MERCHANT_SETTINGS.replace('Free shipping over $50', '<script>alert(1)</script>'),
    });
    const { report, result } = await upgrade({ ...fixture, merchant: evil });
    const html = reportToHtml(report, { source: result.source, target: result.target });
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(html).not.toContain('<script');
    expect(html).not.toMatch(/https?:\/\//);
    expect(html).toContain('From <strong>Aurora LITE 1.0.0</strong> to <strong>Aurora REGULAR 2.0.0</strong>.');
    expect(html).toContain(
      `<li><a href="#review"><strong>${report.summary.review}</strong> needs your review</a></li>`,
    );
    expect(html.indexOf('class="counts"')).toBeLessThan(html.indexOf('<details id="review">'));
    for (const group of ['review', 'dropped', 'moved', 'kept', 'vendor'])
      expect(html).toContain(`<details id="${group}">`);
    expect(html).toContain('<summary>Diff</summary>');
  });
});

/**
 * The invariant: each file of the merchant is in the output with its bytes, in the review zip, or the vendor's
 * untouched file; each change of theirs in a JSON file (release → export) is at its place in the output or in an
 * item of the report at (or around) its path.
 */
async function expectNothingLost(fixture: Fixture, items: ReportItem[], outputPath: string): Promise<void> {
  const [merchant, original, output] = await Promise.all([
    readZipFiles(fixture.merchant),
    readZipFiles(fixture.original),
    readZipFiles(outputPath),
  ]);
  const reviewPath = reviewZipPathFor(outputPath);
  const review = await readZipFiles(reviewPath).catch(() => new Map<string, Buffer>());
  const isJson = (name: string) =>
    /^(templates\/.+|sections\/[^/]+|locales\/[^/]+|config\/settings_data)\.json$/.test(name);
  for (const [name, bytes] of merchant) {
    const untouched = original.get(name)?.equals(bytes) ?? false;
    const inOutput = output.get(name)?.equals(bytes) ?? false;
    const inReview = review.get(name)?.equals(bytes) ?? false;
    if (untouched || inOutput || inReview) continue;
    expect(isJson(name) && original.has(name), `file ${name} is lost`).toBe(true);
    const before = json(original.get(name), name);
    const after = json(output.get(name), name);
    const mine = json(bytes, name);
    const scope = name === 'config/settings_data.json' ? ['current'] : [];
    const changes = diffJson(getPath(before, scope), getPath(mine, scope), {}, scope);
    for (const change of changes) {
      const path = pathText(change.path);
      if (path === 'current.license_token') continue;
      const atPlace =
        change.kind === 'remove'
          ? getPath(after, change.path) === undefined
          : jsonEqual(getPath(after, change.path), change.value);
      const reported = items.some((item) => {
        if (item.file !== name) return false;
        const paths = [item.path ?? '', item.from?.path ?? ''].filter(Boolean);
        return paths.some((p) => p === path || path.startsWith(`${p}.`) || p.startsWith(`${path}.`));
      });
      expect(atPlace || reported, `${name} ${path}`).toBe(true);
    }
  }
}

async function expectThemeCheckClean(zipPath: string): Promise<void> {
  const root = tempPath('theme-check');
  for (const [name, bytes] of await readZipFiles(zipPath)) {
    const file = join(root, name);
    await mkdir(dirname(file), { recursive: true });
    await writeFile(file, bytes);
  }
  const { offenses, theme } = await themeCheckRun(root, undefined, () => undefined);
  expect(theme.length).toBeGreaterThan(10);
  const errors = offenses.filter((offense) => offense.severity === 0);
  expect(errors.map((offense) => `${offense.check}: ${offense.uri} ${offense.message}`)).toEqual([]);
}
