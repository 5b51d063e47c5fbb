import { copyFile, rm, writeFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { createPreparedZipCache } from './prepared-zip-cache';
import { generateThemeZip } from '../../db/demo-theme';
import { tokenizePreparedThemeZip } from './theme-zip';
import { isThemeZipError } from './errors';
import { expectUnzipTestPasses, saveStream, unzipFile, useTempDir } from '../../../test/helpers/theme-zip';

const tempPath = useTempDir('prepared-cache');

describe('prepared zip cache', () => {
  it('scans a zip once and serves every token from that scan', async () => {
    const zip = tempPath('theme.zip');
    await generateThemeZip(zip, { edition: 'PRO', version: '4.2.0' });
    const cache = createPreparedZipCache({ max: 4 });
    const first = await cache.get(zip);
    expect(await cache.get(zip)).toBe(first);
    for (const token of ['token-one', 'token-two']) {
      const out = tempPath(`${token}.zip`);
      await saveStream(tokenizePreparedThemeZip(first, token).stream, out);
      await expectUnzipTestPasses(out);
      const settings = JSON.parse((await unzipFile(out, 'config/settings_data.json')).toString('utf8'));
      expect(settings.current.license_token).toBe(token);
    }
  });

  it('scans again when the file was replaced, and forgets a file that is gone', async () => {
    const zip = tempPath('replaced.zip');
    const other = tempPath('other.zip');
    await generateThemeZip(zip, { edition: 'LITE', version: '1.0.0' });
    await generateThemeZip(other, { edition: 'LITE', version: '1.0.1', folder: 'borealis-lite' });
    const cache = createPreparedZipCache({ max: 4 });
    const before = await cache.get(zip);
    await copyFile(other, zip);
    const after = await cache.get(zip);
    expect(after).not.toBe(before);
    expect(after.scan.prefix).toBe('borealis-lite/');
    await rm(zip);
    const missing = await cache.get(zip).catch((error: unknown) => error);
    expect(isThemeZipError(missing, 'zip_not_found')).toBe(true);
    expect(cache.size).toBe(0);
  });

  it('keeps at most `max` zips, dropping the least recently used', async () => {
    const paths = await Promise.all(
      ['a', 'b', 'c'].map(async (name) => {
        const file = tempPath(`${name}.zip`);
        await generateThemeZip(file, { edition: 'REGULAR', version: '2.0.0' });
        return file;
      }),
    );
    const cache = createPreparedZipCache({ max: 2 });
    const a = await cache.get(paths[0]!);
    await cache.get(paths[1]!);
    expect(await cache.get(paths[0]!)).toBe(a); // a is now the most recent
    await cache.get(paths[2]!); // evicts b
    expect(cache.size).toBe(2);
    expect(await cache.get(paths[0]!)).toBe(a);
  });

  it('does not keep a failed scan', async () => {
    const bad = tempPath('bad.zip');
    await writeFile(bad, 'not a zip');
    const cache = createPreparedZipCache({ max: 2 });
    await expect(cache.get(bad)).rejects.toThrow('The file is not a valid zip archive');
    expect(cache.size).toBe(0);
  });
});
