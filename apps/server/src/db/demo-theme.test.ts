import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { parseShopifyJson } from '../lib/theme-zip/settings-data';
import { expectUnzipTestPasses, listEntries, unzipFile, useTempDir } from '../../test/helpers/theme-zip';
import { generateThemeZip } from './demo-theme';

const tempPath = useTempDir('theme-zip-generator');

describe('generateThemeZip', () => {
  it('writes a valid theme zip with the theme at the zip root', async () => {
    const path = tempPath('gen.zip');
    const result = await generateThemeZip(path, { edition: 'LITE', version: '1.2.3', themeName: 'Nordic Light' });
    expect(result.prefix).toBe('');
    await expectUnzipTestPasses(path);
    const names = (await listEntries(path)).map((entry) => entry.fileName);
    expect(names).toHaveLength(result.entryCount);
    for (const file of [
      'layout/theme.liquid',
      'templates/product.json',
      'snippets/license-check.liquid',
      'locales/en.default.json',
    ]) {
      expect(names).toContain(file);
    }
    expect(
      names
        .filter((name) => name.includes('/'))
        .every((name) => /^(layout|templates|sections|snippets|assets|locales|config)\//.test(name)),
    ).toBe(true);
    const schemaText = (await unzipFile(path, 'config/settings_schema.json')).toString();
    const schema = parseShopifyJson(schemaText).value as Array<Record<string, unknown>>;
    expect(schema.find((section) => section['name'] === 'theme_info')).toMatchObject({
      theme_name: 'Nordic Light',
      theme_version: '1.2.3',
    });
    const license = schema.find((section) => section['name'] === 'License');
    expect(license?.['settings']).toContainEqual(expect.objectContaining({ type: 'text', id: 'license_token' }));
  });

  it('puts the theme in a top-level folder when asked', async () => {
    const path = tempPath('folder.zip');
    const result = await generateThemeZip(path, { edition: 'PRO', version: '1.0.0', folder: 'aurora-pro' });
    expect(result.prefix).toBe('aurora-pro/');
    const names = (await listEntries(path)).map((entry) => entry.fileName);
    expect(names).toHaveLength(result.entryCount);
    expect(names.every((name) => name.startsWith('aurora-pro/'))).toBe(true);
    expect(names).toContain('aurora-pro/layout/theme.liquid');
  });

  it('adds incompressible padding in chunked asset files', async () => {
    const path = tempPath('padded.zip');
    const result = await generateThemeZip(path, { edition: 'PRO', version: '1.0.0', paddingBytes: 9 * 1024 * 1024 });
    expect(result.bytes).toBeGreaterThan(9 * 1024 * 1024);
    const entries = await listEntries(path);
    const media = entries.filter((entry) => entry.fileName.includes('assets/media-'));
    expect(media.map((entry) => [entry.fileName, entry.uncompressedSize])).toEqual([
      ['assets/media-000.bin', 8 * 1024 * 1024],
      ['assets/media-001.bin', 1024 * 1024],
    ]);
    await expectUnzipTestPasses(path);
  });
});

describe('the license check in the theme (ADR 033)', () => {
  it('ships the script asset and writes the portal URL as the license_portal_url setting when given', async () => {
    const path = tempPath('licensed.zip');
    await generateThemeZip(path, { edition: 'PRO', version: '2.0.0', licensePortalUrl: 'https://portal.example' });
    const script = (await unzipFile(path, 'assets/license-check.js')).toString();
    expect(script).toContain("'/api/licenses/validate'");
    const snippet = (await unzipFile(path, 'snippets/license-check.liquid')).toString();
    expect(snippet).toContain('data-version="2.0.0" data-edition="PRO"');
    const schema = parseShopifyJson((await unzipFile(path, 'config/settings_schema.json')).toString()).value as Array<
      Record<string, unknown>
    >;
    const license = schema.find((section) => section['name'] === 'License');
    expect(license?.['settings']).toContainEqual(
      expect.objectContaining({ id: 'license_portal_url', default: 'https://portal.example' }),
    );
    const data = parseShopifyJson((await unzipFile(path, 'config/settings_data.json')).toString()).value;
    expect(data).toMatchObject({ current: { license_token: '', license_portal_url: 'https://portal.example' } });
  });

  it('leaves the portal setting empty (the check off) when none is given', async () => {
    const path = tempPath('unlicensed.zip');
    await generateThemeZip(path, { edition: 'LITE', version: '1.0.0' });
    const data = parseShopifyJson((await unzipFile(path, 'config/settings_data.json')).toString()).value as {
      current: Record<string, unknown>;
    };
    expect(data.current).not.toHaveProperty('license_portal_url');
  });
});

describe('generateThemeZip settings_data variants', () => {
  it('writes a BOM and Shopify comment before the JSON for bom-comment', async () => {
    const path = tempPath('bom.zip');
    await generateThemeZip(path, { edition: 'REGULAR', version: '1.0.0', settingsData: 'bom-comment' });
    const bytes = await unzipFile(path, 'config/settings_data.json');
    expect(bytes.subarray(0, 3)).toEqual(Buffer.from([0xef, 0xbb, 0xbf]));
    expect(bytes.toString('utf8')).toContain('IMPORTANT: The contents of this file are auto-generated.');
    expect(parseShopifyJson(bytes.toString('utf8')).value).toMatchObject({ current: { license_token: '' } });
  });

  it('omits settings_data.json for missing', async () => {
    const path = tempPath('missing.zip');
    const result = await generateThemeZip(path, { edition: 'LITE', version: '1.0.0', settingsData: 'missing' });
    const names = (await listEntries(path)).map((entry) => entry.fileName);
    expect(names).not.toContain('config/settings_data.json');
    expect(names).toHaveLength(result.entryCount);
  });

  it('is deterministic without padding', async () => {
    const first = tempPath('a.zip');
    const second = tempPath('b.zip');
    await generateThemeZip(first, { edition: 'PRO', version: '3.0.0' });
    await generateThemeZip(second, { edition: 'PRO', version: '3.0.0' });
    const [a, b] = await Promise.all([readFile(first), readFile(second)]);
    expect(a.equals(b)).toBe(true);
  });
});
