import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { themeCheckRun } from '@shopify/theme-check-node';
import { describe, expect, it } from 'vitest';
import { generateThemeZip } from '../../db/demo-theme';
import { buildZipByHand, expectUnzipTestPasses, useTempDir, writeZip } from '../../../test/helpers/theme-zip';
import {
  MERCHANT_SETTINGS,
  buildFixture,
  deriveZip,
  originalOptions,
  readZipFiles,
  targetOptions,
  type Fixture,
} from './fixtures.test-helpers';
import { parseLenientJson } from './lenient-json';
import { getPath } from './merge';
import type { ThemeUpgradeReport } from './report';
import { reportToHtml } from './report-html';
import { isPlainObject } from './setting-types';
import { ThemeUpgradeError, readThemeInfo, reviewZipPathFor, upgradeTheme } from './index';

const tempPath = useTempDir('theme-upgrade');
const TOKEN = 'tok_regular_123';

function json(buffer: Buffer | undefined, name = 'file'): unknown {
  if (buffer === undefined) throw new Error(`${name} is missing`);
  return parseLenientJson(buffer.toString('utf8'), name).value;
}

async function upgrade(fixture: Fixture, overrides: Partial<Parameters<typeof upgradeTheme>[0]> = {}) {
  const outputPath = tempPath('out.zip');
  const report = await upgradeTheme({
    merchantZipPath: fixture.merchant,
    originalZipPath: fixture.original,
    targetZipPath: fixture.target,
    token: TOKEN,
    outputPath,
    ...overrides,
  });
  return { report, outputPath: overrides.outputPath ?? outputPath };
}

async function expectUpgradeError(promise: Promise<unknown>, code: string): Promise<void> {
  const error = await promise.then(
    () => null,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(ThemeUpgradeError);
  expect(error).toMatchObject({ code });
}

describe('upgradeTheme: LITE 1.0.0 store → REGULAR 2.0.0', () => {
  it('keeps fitting settings, drops renamed and type-failing ones with their old values, writes the token', async () => {
    const fixture = await buildFixture(tempPath);
    const { report, outputPath } = await upgrade(fixture, { expectedSourceEdition: 'LITE' });
    expect(report.source).toEqual({ edition: 'LITE', version: '1.0.0', themeName: 'Aurora' });
    expect(report.target).toEqual({ edition: 'REGULAR', version: '2.0.0', themeName: 'Aurora' });

    const output = await readZipFiles(outputPath);
    const settings = json(output.get('config/settings_data.json')) as { current: Record<string, unknown> };
    expect(settings.current).toMatchObject({
      color_accent: '#ff0000',
      custom_note: 'Free shipping over $50',
      license_token: TOKEN,
      sections: { header: { type: 'header', settings: { sticky: false } } },
    });
    for (const gone of ['color_background', 'layout_style', 'columns', 'show_badges']) {
      expect(settings.current).not.toHaveProperty(gone);
    }
    const dropped = Object.fromEntries(
      report.settings.dropped.filter((s) => s.scope === 'current').map((s) => [s.id, [s.oldValue, s.reason]]),
    );
    expect(dropped).toEqual({
      color_background: ['#000000', 'the new theme has no such setting'],
      layout_style: ['list', 'not one of the options'],
      columns: [4, 'above the maximum 3'],
      show_badges: [false, 'not text'],
    });
    expect(report.settings.changed).toEqual([expect.objectContaining({ id: 'license_token' })]);
    // Shopify's comment header is the target's; the old token is nowhere in the output or the report.
    expect(output.get('config/settings_data.json')?.toString()).toMatch(/^\/\*/);
    expect(JSON.stringify(report)).not.toContain('old-token-of-the-lite-key');
  });

  it('keeps sections and blocks whose types exist, with their order; reports the missing ones', async () => {
    const { report, outputPath } = await upgrade(await buildFixture(tempPath));
    const index = json((await readZipFiles(outputPath)).get('templates/index.json')) as Record<string, unknown>;
    expect(index).toEqual({
      sections: {
        hero: { type: 'header', settings: { sticky: true } },
        featured: {
          type: 'featured',
          settings: { title: 'Our picks' },
          blocks: { 'text-1': { type: 'text', settings: { heading: 'Hello' } } },
          block_order: ['text-1'],
        },
      },
      order: ['featured', 'hero'],
    });
    expect(report.sections.dropped.map((s) => [s.file, s.scope, s.type])).toEqual([
      ['templates/index.json', 'sections.featured.blocks.image-2', 'image'],
      ['templates/index.json', 'sections.banner', 'legacy-banner'],
      ['templates/page.contact.json', 'sections.gone', 'testimonials'],
    ]);
    expect(report.settings.dropped).toContainEqual(
      expect.objectContaining({ file: 'templates/index.json', id: 'colour_mode', oldValue: 'dark' }),
    );
  });

  it('copies added files as they are, keeps the target version of edited files and offers the merchant copy', async () => {
    const fixture = await buildFixture(tempPath);
    const { report, outputPath } = await upgrade(fixture);
    const output = await readZipFiles(outputPath);
    const merchant = await readZipFiles(fixture.merchant);
    const target = await readZipFiles(fixture.target);
    expect(report.files.added.sort()).toEqual(['assets/custom.css', 'snippets/promo.liquid']);
    for (const name of report.files.added)
      expect(output.get(name)?.equals(merchant.get(name) ?? Buffer.alloc(0))).toBe(true);
    expect(report.files.edited).toEqual(['assets/theme.css']);
    expect(output.get('assets/theme.css')?.equals(target.get('assets/theme.css') ?? Buffer.alloc(0))).toBe(true);
    const review = await readZipFiles(reviewZipPathFor(outputPath));
    expect([...review.keys()]).toEqual(['assets/theme.css']);
    expect(review.get('assets/theme.css')?.toString()).toContain('edited by the merchant');
    expect(report.files.merged).toEqual(
      expect.arrayContaining(['config/settings_data.json', 'templates/index.json', 'templates/page.contact.json']),
    );
    expect(report.files.newInTarget).toEqual(['sections/featured.liquid'].filter((n) => !merchant.has(n)));
    expect(report.files.updated).toContain('assets/theme.js');
    expect(output.get('assets/theme.js')?.toString()).toContain('v2.0.0');
  });

  it('carries locale overrides key by key and reports the keys the target lacks', async () => {
    const { report, outputPath } = await upgrade(await buildFixture(tempPath));
    const locale = json((await readZipFiles(outputPath)).get('locales/en.default.json'));
    expect(locale).toEqual({ general: { password_page: { login_form_heading: 'Come on in' } } });
    expect(report.locales.kept).toEqual([
      { file: 'locales/en.default.json', key: 'general.password_page.login_form_heading', value: 'Come on in' },
    ]);
    expect(report.locales.dropped).toEqual([
      expect.objectContaining({ file: 'locales/en.default.json', key: 'general.custom.greeting', value: 'Howdy' }),
    ]);
  });

  it('nothing is lost silently: every input setting value, section, block, text and file is in the output or the report', async () => {
    const fixture = await buildFixture(tempPath);
    const { report, outputPath } = await upgrade(fixture);
    await expectNothingLost(fixture, report, outputPath);
  });

  it('writes a zip that passes unzip -t and Shopify theme-check with no errors', async () => {
    const { outputPath } = await upgrade(await buildFixture(tempPath));
    await expectUnzipTestPasses(outputPath);
    await expectThemeCheckClean(outputPath);
  });

  it('accepts a merchant export whose theme sits in a folder', async () => {
    const fixture = await buildFixture(tempPath, 'aurora-lite/');
    const { report, outputPath } = await upgrade(fixture);
    expect(report.files.added.sort()).toEqual(['assets/custom.css', 'snippets/promo.liquid']);
    const names = [...(await readZipFiles(outputPath)).keys()];
    expect(names.every((name) => !name.startsWith('aurora-lite/'))).toBe(true);
  });

  it('without the original release: no file counts as edited, differing ones are offered for review', async () => {
    const fixture = await buildFixture(tempPath);
    const { report, outputPath } = await upgrade(fixture, { originalZipPath: null });
    expect(report.originalKnown).toBe(false);
    expect(report.files.edited).toEqual([]);
    expect(report.files.unverified).toEqual(expect.arrayContaining(['assets/theme.css', 'assets/theme.js']));
    expect(report.files.added.sort()).toEqual(['assets/custom.css', 'snippets/promo.liquid']);
    const review = await readZipFiles(reviewZipPathFor(outputPath));
    expect([...review.keys()].sort()).toEqual([...report.files.review].sort());
    await expectNothingLost({ ...fixture, original: fixture.target }, report, outputPath);
  });

  it('drops a section the target removed, whole, with its settings and blocks in the report', async () => {
    const fixture = await buildFixture(tempPath);
    const target = tempPath('no-featured.zip');
    await generateThemeZip(target, { ...targetOptions(), featuredSection: undefined });
    const { report, outputPath } = await upgrade({ ...fixture, target });
    const dropped = report.sections.dropped.find((s) => s.scope === 'sections.featured');
    expect(dropped).toMatchObject({ file: 'templates/index.json', type: 'featured' });
    expect(dropped?.oldValue).toMatchObject({ settings: { title: 'Our picks' }, block_order: ['image-2', 'text-1'] });
    const index = json((await readZipFiles(outputPath)).get('templates/index.json')) as { order: string[] };
    expect(index.order).toEqual(['hero']);
    await expectNothingLost(fixture, report, outputPath);
    await expectThemeCheckClean(outputPath);
  });

  it('a same-edition update keeps everything that still fits', async () => {
    const original = tempPath('pro-1.zip');
    await generateThemeZip(original, originalOptions('PRO'));
    const target = tempPath('pro-2.zip');
    await generateThemeZip(target, { ...targetOptions('PRO'), settingRenames: {} });
    const merchant = await deriveZip(original, tempPath('pro-store.zip'), {});
    const { report, outputPath } = await upgrade({ original, target, merchant }, { expectedSourceEdition: 'PRO' });
    expect(report.source.edition).toBe('PRO');
    expect(report.target.edition).toBe('PRO');
    expect(report.files.edited).toEqual([]);
    const settings = json((await readZipFiles(outputPath)).get('config/settings_data.json')) as {
      current: Record<string, unknown>;
    };
    expect(settings.current).toMatchObject({
      color_accent: '#1f6feb',
      color_background: '#ffffff',
      license_token: TOKEN,
    });
  });
});

describe('upgradeTheme: refused input', () => {
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

  it('refuses a zip that is not a theme, a traversal path and a zip bomb, and writes nothing', async () => {
    const fixture = await buildFixture(tempPath);
    const notTheme = await writeZip(tempPath('photos.zip'), { 'photo.jpg': 'x' });
    const outputPath = tempPath('never.zip');
    await expectUpgradeError(upgrade({ ...fixture, merchant: notTheme }, { outputPath }), 'not_a_theme');
    const traversal = tempPath('traversal.zip');
    await writeFile(
      traversal,
      buildZipByHand([
        { name: 'layout/theme.liquid', content: 'x', method: 0, descriptor: 'none' },
        { name: '../evil.liquid', content: 'x', method: 0, descriptor: 'none' },
      ]),
    );
    await expectUpgradeError(upgrade({ ...fixture, merchant: traversal }, { outputPath }), 'unsafe_entry_path');
    const limits = { maxBytes: 10 * 1024 * 1024, maxEntries: 1000, maxUncompressedBytes: 64 * 1024 };
    const bomb = await deriveZip(fixture.merchant, tempPath('bomb.zip'), {
      'assets/zeros.bin': Buffer.alloc(1024 * 1024),
    });
    await expectUpgradeError(upgrade({ ...fixture, merchant: bomb }, { outputPath, limits }), 'uncompressed_too_large');
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

  it('renders an escaped, self-contained page', async () => {
    const fixture = await buildFixture(tempPath);
    const evil = await deriveZip(fixture.merchant, tempPath('evil.zip'), {
      'config/settings_data.json': MERCHANT_SETTINGS.replace('Free shipping over $50', '<script>alert(1)</script>'),
    });
    const { report } = await upgrade({ ...fixture, merchant: evil });
    const html = reportToHtml(report);
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(html).not.toContain('<script');
    expect(html).not.toMatch(/https?:\/\//);
    expect(html).toContain('Files edited by you — review');
  });
});

/** The invariant: each merchant file, setting value, section, block and locale text is in the output or the report. */
async function expectNothingLost(fixture: Fixture, report: ThemeUpgradeReport, outputPath: string): Promise<void> {
  const merchant = await readZipFiles(fixture.merchant);
  const original = await readZipFiles(fixture.original);
  const output = await readZipFiles(outputPath);
  const reviewPath = reviewZipPathFor(outputPath);
  const review = report.files.review.length > 0 ? await readZipFiles(reviewPath) : new Map<string, Buffer>();
  const strip = (name: string) => name.replace(/^aurora-lite\//, '');
  const merged = new Set(report.files.merged);
  for (const [rawName, bytes] of merchant) {
    const name = strip(rawName);
    if (merged.has(name)) continue;
    const inOutput = output.get(name)?.equals(bytes) ?? false;
    const inReview = report.files.review.includes(name) && (review.get(name)?.equals(bytes) ?? false);
    const vendorCopy =
      (report.files.updated.includes(name) || report.files.removedInTarget.includes(name)) &&
      (original.get(name)?.equals(bytes) ?? false);
    expect(inOutput || inReview || vendorCopy, `file ${name}`).toBe(true);
  }
  // Merged JSON: every value is at its place in the output, or reported.
  const droppedSettings = report.settings.dropped.map(
    (s) => `${s.file}|${s.scope}|${s.id}|${JSON.stringify(s.oldValue)}`,
  );
  const changedSettings = report.settings.changed.map((s) => `${s.file}|${s.scope}|${s.id}`);
  const droppedSections = report.sections.dropped.map((s) => `${s.file}|${s.scope}`);
  for (const name of report.files.merged) {
    const before = json(merchant.get(name) ?? merchant.get(`aurora-lite/${name}`), name);
    const after = json(output.get(name), name);
    if (name.startsWith('locales/')) {
      walkLeaves(before, [], (path, value) => {
        const key = path.join('.');
        const kept = JSON.stringify(getPath(after, path)) === JSON.stringify(value);
        const dropped = report.locales.dropped.some((l) => l.file === name && l.key === key);
        const vendorText = JSON.stringify(getPath(json(original.get(name), name), path)) === JSON.stringify(value);
        expect(kept || dropped || vendorText, `${name} ${key}`).toBe(true);
      });
      continue;
    }
    const scopes =
      name === 'config/settings_data.json'
        ? [['current'], ...sectionScopes(getPath(before, ['current']), ['current'])]
        : sectionScopes(before, []);
    for (const scope of scopes) {
      const settingsPath = name === 'config/settings_data.json' && scope.length === 1 ? scope : [...scope, 'settings'];
      const reportScope = scope.filter((part) => part !== 'current').join('.') || 'current';
      const sectionGone = droppedSections.some((d) => `${name}|${reportScope}`.startsWith(d));
      const values = getPath(before, settingsPath);
      if (!isPlainObject(values)) continue;
      for (const [id, value] of Object.entries(values)) {
        if (
          name === 'config/settings_data.json' &&
          scope.length === 1 &&
          ['sections', 'content_for_index'].includes(id)
        )
          continue;
        const kept = JSON.stringify(getPath(after, [...settingsPath, id])) === JSON.stringify(value);
        const reported =
          droppedSettings.includes(`${name}|${reportScope}|${id}|${JSON.stringify(value)}`) ||
          changedSettings.includes(`${name}|${reportScope}|${id}`);
        expect(kept || reported || sectionGone, `${name} ${reportScope} ${id}`).toBe(true);
      }
    }
  }
}

/** ['sections', key] and ['sections', key, 'blocks', key] paths of a template (or settings_data current). */
function sectionScopes(container: unknown, base: string[]): string[][] {
  const scopes: string[][] = [];
  const sections = getPath(container, ['sections']);
  if (!isPlainObject(sections)) return scopes;
  for (const [key, section] of Object.entries(sections)) {
    scopes.push([...base, 'sections', key]);
    const blocks = getPath(section, ['blocks']);
    if (isPlainObject(blocks))
      for (const blockKey of Object.keys(blocks)) scopes.push([...base, 'sections', key, 'blocks', blockKey]);
  }
  return scopes;
}

function walkLeaves(value: unknown, path: string[], visit: (path: string[], value: unknown) => void): void {
  if (isPlainObject(value)) {
    for (const [key, child] of Object.entries(value)) walkLeaves(child, [...path, key], visit);
  } else visit(path, value);
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
