import { createWriteStream } from 'node:fs';
import { mkdir, readFile, symlink, truncate, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { describe, expect, it, vi } from 'vitest';
import * as yazl from 'yazl';
import { parseShopifyJson } from './settings-data';
import { generateThemeZip, type GenerateThemeZipOptions } from '../../db/demo-theme';
import { createTokenizedThemeZip, inspectThemeZip, type ThemeZipLimits } from './theme-zip';
import { SHOPIFY_SETTINGS_COMMENT } from '../../db/demo-theme';
import {
  buildZipByHand,
  expectThemeZipError,
  expectUnzipTestPasses,
  listEntries,
  readRawEntries,
  run,
  saveStream,
  unzipFile,
  useTempDir,
  writeZip,
} from '../../../test/helpers/theme-zip';

const TOKEN = 'kp_live_7f3a9c2e-token';
const GENEROUS_LIMITS: ThemeZipLimits = {
  maxBytes: 100 * 1024 * 1024,
  maxEntries: 1000,
  maxUncompressedBytes: 200 * 1024 * 1024,
};

const tempPath = useTempDir('theme-zip');

function zipOf(
  files: Record<string, string>,
  endOptions?: { forceZip64Format: boolean; comment: string },
): Promise<string> {
  return writeZip(tempPath('custom.zip'), files, endOptions);
}

async function generate(options: Partial<GenerateThemeZipOptions> = {}): Promise<string> {
  const path = tempPath('theme.zip');
  // In a top-level folder, as releases uploaded before the root layout still are (and some vendors ship them).
  await generateThemeZip(path, {
    edition: 'PRO',
    version: '2.4.1',
    folder: `aurora-${(options.edition ?? 'PRO').toLowerCase()}`,
    ...options,
  });
  return path;
}

async function tokenize(
  source: string,
  token = TOKEN,
): Promise<{ path: string; contentLength: number; streamed: number }> {
  const { contentLength, stream } = await createTokenizedThemeZip(source, token, { limits: GENEROUS_LIMITS });
  const path = tempPath('tokenized.zip');
  const streamed = await saveStream(stream, path);
  return { path, contentLength, streamed };
}

/** Asserts every entry except `replaced` is byte-identical (local header, data, descriptor, CRC). */
async function expectUntouchedEntriesIdentical(source: string, output: string, replaced: string): Promise<void> {
  const before = await readRawEntries(source);
  const after = await readRawEntries(output);
  for (const [name, original] of before) {
    if (name === replaced) continue;
    const copy = after.get(name);
    expect(copy, name).toBeDefined();
    expect(copy?.crc32, name).toBe(original.crc32);
    expect(copy?.data.equals(original.data), `${name} data`).toBe(true);
    expect(copy?.localHeader.equals(original.localHeader), `${name} local header`).toBe(true);
    expect(copy?.descriptor.equals(original.descriptor), `${name} descriptor`).toBe(true);
    expect(copy?.extraFields, name).toEqual(original.extraFields);
    expect([copy?.dosDate, copy?.dosTime, copy?.externalAttributes], name).toEqual([
      original.dosDate,
      original.dosTime,
      original.externalAttributes,
    ]);
  }
}

async function readSettings(zipPath: string, name: string): Promise<{ text: string; value: Record<string, unknown> }> {
  const text = (await unzipFile(zipPath, name)).toString('utf8');
  const { value } = parseShopifyJson(text);
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new Error('settings is not an object');
  return { text, value: value as Record<string, unknown> };
}

function minimalTheme(prefix: string, settingsData?: string): Record<string, string> {
  const files: Record<string, string> = {
    [`${prefix}layout/theme.liquid`]: '<html>{{ content_for_layout }}</html>',
    [`${prefix}templates/index.json`]: '{"sections":{},"order":[]}',
    [`${prefix}config/settings_schema.json`]: '[{"name":"theme_info","theme_name":"Mini","theme_version":"1.0.0"}]',
  };
  if (settingsData !== undefined) files[`${prefix}config/settings_data.json`] = settingsData;
  return files;
}

/** Replaces every occurrence of `from` with the same-length `to` in a file. */
async function patchBytes(path: string, from: string, to: string): Promise<void> {
  expect(from.length).toBe(to.length);
  const bytes = await readFile(path);
  const search = Buffer.from(from);
  let index = bytes.indexOf(search);
  expect(index).toBeGreaterThanOrEqual(0);
  while (index >= 0) {
    Buffer.from(to).copy(bytes, index);
    index = bytes.indexOf(search, index + 1);
  }
  await writeFile(path, bytes);
}

describe('inspectThemeZip', () => {
  it('describes a generated theme', async () => {
    const path = await generate({ themeName: 'Aurora', edition: 'REGULAR' });
    await expect(inspectThemeZip(path, GENEROUS_LIMITS)).resolves.toEqual({
      entryCount: 14,
      prefix: 'aurora-regular/',
      themeName: 'Aurora',
      hasSettingsData: true,
    });
  });

  it('accepts a theme at the zip root and reports a missing settings file', async () => {
    const path = await zipOf(minimalTheme(''));
    await expect(inspectThemeZip(path)).resolves.toEqual({
      entryCount: 3,
      prefix: '',
      themeName: 'Mini',
      hasSettingsData: false,
    });
  });

  it('returns a null theme name when settings_schema.json has no theme_info', async () => {
    const files = minimalTheme('t/');
    files['t/config/settings_schema.json'] = '[{"name":"Colors","settings":[]}]';
    await expect(inspectThemeZip(await zipOf(files))).resolves.toMatchObject({ themeName: null, prefix: 't/' });
  });

  it('rejects random bytes', async () => {
    const path = tempPath('random.zip');
    await writeFile(path, Buffer.from(Array.from({ length: 4096 }, (_, index) => (index * 7919) % 251)));
    await expectThemeZipError(inspectThemeZip(path), 'invalid_zip', /^The file is not a valid zip archive/);
  });

  it('rejects an empty file', async () => {
    const path = tempPath('empty.zip');
    await writeFile(path, '');
    await expectThemeZipError(inspectThemeZip(path), 'invalid_zip');
  });

  it.each([
    ['half', 0.5],
    ['all but the last 10 bytes', -10],
  ])('rejects a zip truncated to %s', async (_label, cut) => {
    const path = await generate({ paddingBytes: 64 * 1024 });
    const size = (await readFile(path)).length;
    await truncate(path, cut > 0 ? Math.floor(size * cut) : size + cut);
    await expectThemeZipError(inspectThemeZip(path), 'invalid_zip');
  });

  it('rejects a zip whose central directory points past the data', async () => {
    const path = await generate();
    const bytes = await readFile(path);
    const eocd = bytes.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
    bytes.writeUInt32LE(bytes.readUInt32LE(eocd + 16) + 3, eocd + 16);
    await writeFile(path, bytes);
    await expectThemeZipError(inspectThemeZip(path), 'invalid_zip');
  });

  it.each([
    ['a deflated entry', 'aurora-pro/layout/theme.liquid'],
    ['a stored entry', 'aurora-pro/assets/media-000.bin'],
  ])('rejects corrupt data in %s unless verifyContents is false', async (_label, name) => {
    const path = await generate({ paddingBytes: 4096 });
    const entry = (await listEntries(path)).find((candidate) => candidate.fileName === name);
    const bytes = await readFile(path);
    const offset = entry?.relativeOffsetOfLocalHeader ?? 0;
    const dataStart = offset + 30 + bytes.readUInt16LE(offset + 26) + bytes.readUInt16LE(offset + 28);
    bytes.writeUInt8(bytes.readUInt8(dataStart + 10) ^ 0xff, dataStart + 10);
    await writeFile(path, bytes);
    await expectThemeZipError(inspectThemeZip(path), 'invalid_zip', new RegExp(`${name} is corrupt`));
    await expect(inspectThemeZip(path, GENEROUS_LIMITS, { verifyContents: false })).resolves.toMatchObject({
      entryCount: 15,
    });
  });

  it('rejects a settings_data.json the token cannot be written into', async () => {
    for (const settings of ['{"current": oops', '[1, 2]']) {
      await expectThemeZipError(inspectThemeZip(await zipOf(minimalTheme('', settings))), 'invalid_settings_json');
    }
  });

  it('rejects a missing file', async () => {
    await expectThemeZipError(inspectThemeZip(tempPath('nope.zip')), 'zip_not_found');
  });

  it('enforces maxBytes, maxEntries and maxUncompressedBytes', async () => {
    const path = await generate({ paddingBytes: 200 * 1024 });
    await expectThemeZipError(
      inspectThemeZip(path, { ...GENEROUS_LIMITS, maxBytes: 100 * 1024 }),
      'zip_too_large',
      /^The theme zip is too large \(max 102400 bytes\)$/,
    );
    await expectThemeZipError(
      inspectThemeZip(path, { ...GENEROUS_LIMITS, maxEntries: 5 }),
      'too_many_entries',
      /^The theme zip has too many entries \(max 5\)$/,
    );
    await expectThemeZipError(
      inspectThemeZip(path, { ...GENEROUS_LIMITS, maxUncompressedBytes: 150 * 1024 }),
      'uncompressed_too_large',
    );
    await expectThemeZipError(
      createTokenizedThemeZip(path, TOKEN, { limits: { ...GENEROUS_LIMITS, maxEntries: 5 } }),
      'too_many_entries',
    );
  });

  it('rejects a zip that is not a Shopify theme', async () => {
    const path = await zipOf({ 'README.md': '# hello', 'src/index.js': 'console.log(1)' });
    await expectThemeZipError(
      inspectThemeZip(path),
      'not_a_theme',
      /^The zip does not look like a Shopify theme \(layout\/theme\.liquid is missing\)$/,
    );
  });

  it('rejects a theme without templates/', async () => {
    const files = minimalTheme('x/');
    delete files['x/templates/index.json'];
    await expectThemeZipError(inspectThemeZip(await zipOf(files)), 'not_a_theme', /x\/templates\/ is missing/);
  });

  it('rejects a zip holding two themes', async () => {
    const path = await zipOf({ ...minimalTheme('a/'), ...minimalTheme('b/') });
    await expectThemeZipError(inspectThemeZip(path), 'multiple_themes');
  });

  it.each([
    ['a parent-directory entry', 'aa/evil.txt', '../evil.txt'],
    ['an absolute entry', 'xetc/passwd', '/etc/passwd'],
    ['a drive-letter entry', 'cx/boot.ini', 'c:/boot.ini'],
  ])('rejects %s', async (_label, safeName, unsafeName) => {
    const path = await zipOf({ ...minimalTheme(''), [safeName]: 'x' });
    await patchBytes(path, safeName, unsafeName);
    await expectThemeZipError(inspectThemeZip(path), 'unsafe_entry_path', /unsafe file path/);
  });

  it('rejects a symbolic link (zip -y), as unsafe as a traversal path', async () => {
    const dir = tempPath('symlinked');
    for (const [name, content] of Object.entries(minimalTheme(''))) {
      await mkdir(join(dir, name, '..'), { recursive: true });
      await writeFile(join(dir, name), content);
    }
    await symlink('/etc/passwd', join(dir, 'config', 'settings_data.json'));
    await run('zip', ['-q', '-r', '-y', 'theme.zip', 'layout', 'templates', 'config'], { cwd: dir });
    await expectThemeZipError(
      inspectThemeZip(join(dir, 'theme.zip')),
      'unsupported_entry_type',
      /config\/settings_data\.json.*a symbolic link/,
    );
  });

  it.each([
    ['a FIFO', 0o010644, 'layout/pipe.liquid', /a special file/],
    ['a block device', 0o060644, 'layout/disk.liquid', /a special file/],
    ['a folder entry with a file name', 0o040755, 'layout/folder.liquid', /a folder/],
  ])('rejects %s (any entry that is not a regular file or a folder)', async (_label, mode, name, message) => {
    const path = tempPath('special.zip');
    const entries = Object.entries(minimalTheme('')).map(([file, content]) => ({
      name: file,
      content,
      method: 0 as const,
      descriptor: 'none' as const,
    }));
    entries.push({
      name,
      content: 'x',
      method: 0,
      descriptor: 'none',
      externalAttributes: (mode << 16) >>> 0,
    } as never);
    await writeFile(path, buildZipByHand(entries));
    await expectThemeZipError(inspectThemeZip(path), 'unsupported_entry_type', message);
  });

  it('accepts MS-DOS attributes and Unix regular files and folders', async () => {
    const path = tempPath('attributes.zip');
    const files = Object.entries(minimalTheme('')).map(([file, content]) => ({
      name: file,
      content,
      method: 0 as const,
      descriptor: 'none' as const,
      versionMadeBy: 20,
      externalAttributes: 0x20,
    }));
    files.push({
      name: 'assets/',
      content: '',
      method: 0,
      descriptor: 'none',
      versionMadeBy: (3 << 8) | 20,
      externalAttributes: ((0o040755 << 16) | 0x10) >>> 0,
    });
    await writeFile(path, buildZipByHand(files));
    await expect(inspectThemeZip(path)).resolves.toMatchObject({ prefix: '' });
  });

  it('rejects duplicate entry names', async () => {
    const path = await zipOf({ ...minimalTheme(''), 'assets/a.css': 'a', 'assets/b.css': 'b' });
    await patchBytes(path, 'assets/b.css', 'assets/a.css');
    await expectThemeZipError(inspectThemeZip(path), 'duplicate_entry');
  });

  it('rejects an encrypted entry (zip -P)', async () => {
    const dir = tempPath('encrypted');
    await mkdir(join(dir, 'layout'), { recursive: true });
    await writeFile(join(dir, 'layout/theme.liquid'), '<html></html>');
    await run('zip', ['-q', '-r', '-P', 'secret', 'theme.zip', 'layout'], { cwd: dir });
    await expectThemeZipError(inspectThemeZip(join(dir, 'theme.zip')), 'encrypted_entry', /encrypted/);
  });

  it('rejects zip64 archives', async () => {
    const archiveLevel = await zipOf(minimalTheme(''), { forceZip64Format: true, comment: '' });
    await expectThemeZipError(inspectThemeZip(archiveLevel), 'zip64_unsupported', /ZIP64/);
  });

  it('rejects entries with zip64 extra fields', async () => {
    const path = tempPath('zip64-entry.zip');
    const zip = new yazl.ZipFile();
    for (const [name, content] of Object.entries(minimalTheme(''))) {
      zip.addBuffer(Buffer.from(content), name, { forceZip64Format: true });
    }
    const written = pipeline(zip.outputStream, createWriteStream(path));
    zip.end();
    await written;
    await expectThemeZipError(inspectThemeZip(path), 'zip64_unsupported');
  });

  it('rejects entries with an unsupported compression method', async () => {
    const path = await zipOf(minimalTheme(''));
    const bytes = await readFile(path);
    const central = bytes.indexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02]));
    bytes.writeUInt16LE(14, central + 10);
    await writeFile(path, bytes);
    await expectThemeZipError(inspectThemeZip(path), 'unsupported_compression');
  });
});

describe('createTokenizedThemeZip', () => {
  it('copies untouched entries byte for byte and writes the token', async () => {
    const source = await generate({ paddingBytes: 300 * 1024 });
    const { path, contentLength, streamed } = await tokenize(source);
    expect(streamed).toBe(contentLength);
    expect((await readFile(path)).length).toBe(contentLength);
    await expectUnzipTestPasses(path);
    await expectUntouchedEntriesIdentical(source, path, 'aurora-pro/config/settings_data.json');

    const { value } = await readSettings(path, 'aurora-pro/config/settings_data.json');
    expect(value['current']).toMatchObject({ license_token: TOKEN, color_accent: '#1f6feb' });
    expect(value['presets']).toEqual({ Default: { color_accent: '#1f6feb', color_background: '#ffffff' } });
  });

  it('keeps every entry at its place, settings_data.json included', async () => {
    const source = await generate();
    const { path } = await tokenize(source);
    const before = (await listEntries(source)).map((entry) => entry.fileName);
    const after = (await listEntries(path)).map((entry) => entry.fileName);
    expect(before.indexOf('aurora-pro/config/settings_data.json')).toBeLessThan(before.length - 1);
    expect(after).toEqual(before);
  });

  it('writes the token into the settings text in place: every other byte of it survives', async () => {
    const settings = [
      '{',
      '  "current": {',
      '    "big_number": 12345678901234567890,',
      '    "ratio": 1.50,',
      '    "cafe": "Caf\\u00e9",',
      '    "license_token": ""',
      '  }',
      '}',
      '',
    ].join('\n');
    const files = minimalTheme('', settings);
    const source = await zipOf({ ...files, 'snippets/after-settings.liquid': '{{ settings.ratio }}' });
    const { path } = await tokenize(source);
    await expectUnzipTestPasses(path);
    const text = (await unzipFile(path, 'config/settings_data.json')).toString('utf8');
    expect(text).toBe(settings.replace('"license_token": ""', `"license_token": "${TOKEN}"`));
    expect(text).toContain('12345678901234567890');
    expect(text).toContain('"ratio": 1.50');
    expect(text).toContain('Caf\\u00e9');
    await expectUntouchedEntriesIdentical(source, path, 'config/settings_data.json');
    const names = (await listEntries(path)).map((entry) => entry.fileName);
    expect(names).toEqual((await listEntries(source)).map((entry) => entry.fileName));
    expect(names.at(-1)).toBe('snippets/after-settings.liquid');
  });

  it('copies data descriptors (bit 3) with their entries', async () => {
    const source = await generate({ paddingBytes: 10 * 1024 });
    const before = await readRawEntries(source);
    const withDescriptor = [...before.values()].filter((entry) => (entry.flags & 8) !== 0);
    expect(withDescriptor.map((entry) => entry.name).sort()).toEqual([
      'aurora-pro/assets/media-000.bin',
      'aurora-pro/assets/theme.js',
    ]);
    const { path } = await tokenize(source);
    const after = await readRawEntries(path);
    for (const entry of withDescriptor) {
      expect(after.get(entry.name)?.descriptor.readUInt32LE(0)).toBe(0x08074b50);
      expect(after.get(entry.name)?.descriptor.equals(entry.descriptor)).toBe(true);
    }
    await expectUnzipTestPasses(path);
  });

  it('keeps the BOM and comment prefix of settings_data.json', async () => {
    const source = await generate({ settingsData: 'bom-comment' });
    const { path } = await tokenize(source);
    const bytes = await unzipFile(path, 'aurora-pro/config/settings_data.json');
    expect(bytes.subarray(0, 3)).toEqual(Buffer.from([0xef, 0xbb, 0xbf]));
    const text = bytes.toString('utf8');
    expect(text.startsWith(`\uFEFF${SHOPIFY_SETTINGS_COMMENT}\n{`)).toBe(true);
    expect(parseShopifyJson(text).value).toMatchObject({ current: { license_token: TOKEN } });
    await expectUntouchedEntriesIdentical(source, path, 'aurora-pro/config/settings_data.json');
  });

  it('creates settings_data.json when the theme has none', async () => {
    const source = await generate({ settingsData: 'missing' });
    await expect(inspectThemeZip(source)).resolves.toMatchObject({ hasSettingsData: false });
    const { path, contentLength, streamed } = await tokenize(source);
    expect(streamed).toBe(contentLength);
    await expectUnzipTestPasses(path);
    const { value } = await readSettings(path, 'aurora-pro/config/settings_data.json');
    expect(value).toEqual({ current: { license_token: TOKEN } });
    await expectUntouchedEntriesIdentical(source, path, '');
    await expect(inspectThemeZip(path)).resolves.toMatchObject({ hasSettingsData: true, entryCount: 14 });
  });

  it('writes into the named preset when current is a preset name', async () => {
    const settings = JSON.stringify({ current: 'Dawn', presets: { Dawn: { color: 'red' }, Other: { color: 'blue' } } });
    const source = await zipOf(minimalTheme('dawn/', settings));
    const { path } = await tokenize(source);
    const { value } = await readSettings(path, 'dawn/config/settings_data.json');
    expect(value).toEqual({
      current: 'Dawn',
      presets: { Dawn: { color: 'red', license_token: TOKEN }, Other: { color: 'blue' } },
    });
    await expectUntouchedEntriesIdentical(source, path, 'dawn/config/settings_data.json');
  });

  it('keeps the timestamp and attributes of the replaced settings entry', async () => {
    const source = await generate();
    const { path } = await tokenize(source);
    const name = 'aurora-pro/config/settings_data.json';
    const before = (await readRawEntries(source)).get(name);
    const after = (await readRawEntries(path)).get(name);
    expect(after?.method).toBe(8);
    expect(after?.flags).toBe(0x0800);
    expect([after?.dosDate, after?.dosTime, after?.externalAttributes]).toEqual([
      before?.dosDate,
      before?.dosTime,
      before?.externalAttributes,
    ]);
    expect(
      (await listEntries(path))
        .find((entry) => entry.fileName === name)
        ?.getLastModDate()
        .toISOString(),
    ).toBe('2024-05-01T12:00:00.000Z');
  });

  it('copies an Info-ZIP streamed archive (local extras differ, descriptors without zip64)', async () => {
    const generated = await generate();
    const dir = tempPath('infozip');
    await mkdir(dir);
    await run('unzip', ['-q', generated, '-d', dir]);
    const source = join(dir, 'infozip.zip');
    await run('sh', ['-c', `zip -q -r - aurora-pro | cat > ${JSON.stringify(source)}`], { cwd: dir });
    const { path, contentLength, streamed } = await tokenize(source);
    expect(streamed).toBe(contentLength);
    await expectUnzipTestPasses(path);
    await expectUntouchedEntriesIdentical(source, path, 'aurora-pro/config/settings_data.json');
    const { value } = await readSettings(path, 'aurora-pro/config/settings_data.json');
    expect(value['current']).toMatchObject({ license_token: TOKEN });
  });

  it('copies unsigned (12 byte) data descriptors', async () => {
    const source = tempPath('hand-theme.zip');
    const files = Object.entries(minimalTheme('hand/', '{"current":{"a":1}}'));
    const entries = files.map(([name, content], index) => ({
      name,
      content,
      method: index % 2 === 0 ? (8 as const) : (0 as const),
      descriptor: 'unsigned' as const,
    }));
    await writeFile(source, buildZipByHand(entries));
    await expectUnzipTestPasses(source);
    const { path, contentLength, streamed } = await tokenize(source);
    expect(streamed).toBe(contentLength);
    await expectUnzipTestPasses(path);
    await expectUntouchedEntriesIdentical(source, path, 'hand/config/settings_data.json');
    const { value } = await readSettings(path, 'hand/config/settings_data.json');
    expect(value).toEqual({ current: { a: 1, license_token: TOKEN } });
  });

  it('keeps the archive comment', async () => {
    const source = await zipOf(minimalTheme('', '{"current":{}}'), {
      forceZip64Format: false,
      comment: 'Aurora 2.4.1',
    });
    const { path } = await tokenize(source);
    const bytes = await readFile(path);
    expect(bytes.subarray(bytes.length - 12).toString('latin1')).toBe('Aurora 2.4.1');
    await expectUnzipTestPasses(path);
  });

  it('rejects settings_data.json that is not JSON', async () => {
    const source = await zipOf(minimalTheme('', '{"current": oops'));
    await expectThemeZipError(createTokenizedThemeZip(source, TOKEN), 'invalid_settings_json');
  });

  it('rejects invalid zips before streaming', async () => {
    const path = tempPath('random.zip');
    await writeFile(path, 'PK\u0003\u0004 definitely not a zip');
    await expectThemeZipError(createTokenizedThemeZip(path, TOKEN), 'invalid_zip');
    await expectThemeZipError(createTokenizedThemeZip(await zipOf({ 'a.txt': 'a' }), TOKEN), 'not_a_theme');
  });

  it('fails the stream when the source changes after planning', async () => {
    const source = await generate();
    const { stream } = await createTokenizedThemeZip(source, TOKEN);
    await utimes(source, new Date('2020-01-01'), new Date('2020-01-01'));
    await expectThemeZipError(saveStream(stream, tempPath('changed.zip')), 'source_changed');
  });

  it('closes the source file when the stream is destroyed early', async () => {
    const source = await generate({ paddingBytes: 1024 * 1024 });
    const openHandles = (): number =>
      process.getActiveResourcesInfo().filter((resource) => resource === 'FileHandle').length;
    const baseline = openHandles();
    const unread = await createTokenizedThemeZip(source, TOKEN);
    unread.stream.destroy();
    const partial = await createTokenizedThemeZip(source, TOKEN);
    await new Promise<void>((resolve) => {
      partial.stream.once('data', () => {
        partial.stream.destroy();
        resolve();
      });
    });
    // Closing is asynchronous: on a loaded machine it can take longer than any fixed pause. A leak never closes.
    await vi.waitFor(() => expect(openHandles()).toBe(baseline), { timeout: 5_000, interval: 20 });
  });

  it('produces identical bytes for the same token and different bytes for another token', async () => {
    const source = await generate();
    const first = await readFile((await tokenize(source, 'token-a')).path);
    const second = await readFile((await tokenize(source, 'token-a')).path);
    const third = await readFile((await tokenize(source, 'token-b')).path);
    expect(first.equals(second)).toBe(true);
    expect(first.equals(third)).toBe(false);
  });
});
