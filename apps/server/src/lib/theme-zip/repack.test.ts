import { access, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { generateThemeZip } from '../../db/demo-theme';
import {
  expectThemeZipError,
  expectUnzipTestPasses,
  listEntries,
  readRawEntries,
  run,
  unzipFile,
  useTempDir,
  writeZip,
} from '../../../test/helpers/theme-zip';
import { repackThemeAtRoot } from './repack';
import { inspectThemeZip } from './theme-zip';

const tempPath = useTempDir('repack');

const exists = (path: string) =>
  access(path).then(
    () => true,
    () => false,
  );

/** Asserts `output` holds every entry of `source` (minus `prefix` and the dropped ones) with raw-identical data. */
async function expectRawCopies(source: string, output: string, prefix: string, dropped: string[] = []): Promise<void> {
  const before = await readRawEntries(source);
  const after = await readRawEntries(output);
  const expectedNames = [...before.keys()].filter((name) => !dropped.includes(name)).map((n) => n.slice(prefix.length));
  expect([...after.keys()]).toEqual(expectedNames);
  for (const [name, original] of before) {
    if (dropped.includes(name)) continue;
    const copy = after.get(name.slice(prefix.length));
    expect(copy?.data.equals(original.data), name).toBe(true);
    expect(copy?.descriptor.equals(original.descriptor), name).toBe(true);
    expect([copy?.crc32, copy?.method, copy?.dosDate, copy?.dosTime, copy?.externalAttributes], name).toEqual([
      original.crc32,
      original.method,
      original.dosDate,
      original.dosTime,
      original.externalAttributes,
    ]);
    // The local header's fixed fields (version, flags, method, time, CRC, sizes) are the original's.
    expect(copy?.localHeader.subarray(4, 26).equals(original.localHeader.subarray(4, 26)), name).toBe(true);
  }
}

describe('repackThemeAtRoot', () => {
  it('moves a theme out of its folder, copying every entry raw (data descriptors included)', async () => {
    const source = tempPath('folder.zip');
    await generateThemeZip(source, { edition: 'PRO', version: '4.2.0', folder: 'aurora-pro', paddingBytes: 64 * 1024 });
    const output = tempPath('root.zip');
    const result = await repackThemeAtRoot(source, output);
    expect(result).toEqual({ removedPrefix: 'aurora-pro/', entryCount: 15, bytes: (await readFile(output)).length });
    await expectUnzipTestPasses(output);
    await expectRawCopies(source, output, 'aurora-pro/');
    await expect(inspectThemeZip(output)).resolves.toEqual({
      entryCount: 15,
      prefix: '',
      themeName: 'Aurora',
      hasSettingsData: true,
    });
    expect(
      (await unzipFile(output, 'layout/theme.liquid')).equals(
        await unzipFile(source, 'aurora-pro/layout/theme.liquid'),
      ),
    ).toBe(true);
  });

  it('drops the folder entry and macOS metadata of an Info-ZIP archive, and keeps the archive comment', async () => {
    const generated = tempPath('generated.zip');
    await generateThemeZip(generated, { edition: 'LITE', version: '1.0.0', folder: 'aurora-lite' });
    const dir = tempPath('infozip');
    await mkdir(dir);
    await run('unzip', ['-q', generated, '-d', dir]);
    await mkdir(join(dir, '__MACOSX/aurora-lite'), { recursive: true });
    await writeFile(join(dir, '__MACOSX/aurora-lite/._theme.liquid'), 'resource fork');
    const source = join(dir, 'theme.zip');
    await run('zip', ['-q', '-r', source, 'aurora-lite', '__MACOSX'], { cwd: dir });
    await run('sh', ['-c', `echo 'Aurora Lite 1.0.0' | zip -q -z ${JSON.stringify(source)}`]);
    const names = (await listEntries(source)).map((entry) => entry.fileName);
    expect(names).toContain('aurora-lite/');
    expect(names).toContain('aurora-lite/layout/');
    const dropped = names.filter((name) => name === 'aurora-lite/' || name.startsWith('__MACOSX/'));

    const output = tempPath('root.zip');
    await repackThemeAtRoot(source, output);
    await expectUnzipTestPasses(output);
    await expectRawCopies(source, output, 'aurora-lite/', dropped);
    const after = (await listEntries(output)).map((entry) => entry.fileName);
    expect(after).toContain('layout/');
    expect(after.some((name) => name.startsWith('aurora-lite') || name.startsWith('__MACOSX'))).toBe(false);
    const { stdout } = await run('unzip', ['-z', output]);
    expect(stdout).toContain('Aurora Lite 1.0.0');
  });

  it('writes the names as UTF-8 when the folder name is not ASCII', async () => {
    const source = tempPath('unicode.zip');
    await generateThemeZip(source, { edition: 'PRO', version: '1.0.0', folder: 'thème-été' });
    const output = tempPath('root.zip');
    await repackThemeAtRoot(source, output);
    await expectUnzipTestPasses(output);
    await expectRawCopies(source, output, 'thème-été/');
    for (const entry of await listEntries(output)) expect(entry.generalPurposeBitFlag & 0x0800).toBe(0x0800);
  });

  it('answers null and writes nothing when the theme already is at the root', async () => {
    const source = tempPath('root-already.zip');
    await generateThemeZip(source, { edition: 'PRO', version: '1.0.0' });
    const output = tempPath('not-written.zip');
    await expect(repackThemeAtRoot(source, output)).resolves.toBeNull();
    expect(await exists(output)).toBe(false);
  });

  it('refuses a file beside the theme folder, leaving no output behind', async () => {
    const source = await writeZip(tempPath('beside.zip'), {
      'aurora/layout/theme.liquid': '<html></html>',
      'aurora/templates/index.json': '{}',
      'aurora/config/settings_schema.json': '[]',
      'README.txt': 'read me',
    });
    const output = tempPath('refused.zip');
    await expectThemeZipError(
      repackThemeAtRoot(source, output),
      'outside_theme_folder',
      /^The zip holds README\.txt beside the theme folder aurora\//,
    );
    expect(await exists(output)).toBe(false);
  });
});
