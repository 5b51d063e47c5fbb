/**
 * An input zip of an upgrade, open: its files by name and their texts on demand (each read once, size-checked). The
 * merchant's export, the new version and the detected release are each opened once for the whole run.
 */
import { open } from 'node:fs/promises';
import type { ZipFile } from 'yauzl';
import { DIRECT_READ_BYTES, readEntryDirect } from '../theme-zip/manifest';
import { repackThemeAtRoot } from '../theme-zip/repack';
import {
  readEntryBytes,
  withScannedThemeZip,
  type ScannedEntry,
  type ThemeZipLimits,
  type ThemeZipScan,
} from '../theme-zip/scan';
import { ThemeUpdateError } from './errors';

const MIB = 1024 * 1024;
/** One JSON or Liquid file read into memory. */
export const MAX_TEXT_FILE_BYTES = 8 * MIB;
/** All texts read from one zip in one run. */
const MAX_TEXT_BYTES_PER_ZIP = 48 * MIB;

export interface OpenTheme {
  /** The zip (the theme at its root). */
  path: string;
  scan: ThemeZipScan;
  zipfile: ZipFile;
  /** Files (not folders) by theme-relative name. */
  byName: Map<string, ScannedEntry>;
  /** The file's text (UTF-8), read once; undefined when the theme has no such file. */
  text(name: string): Promise<string | undefined>;
  /** The file's bytes when it is at most `maxBytes`, else undefined. */
  bytes(name: string, maxBytes: number): Promise<Buffer | undefined>;
}

/**
 * Opens a theme zip with the theme at its root: the zip itself, or when its theme sits in a folder, a copy (written
 * to `copyPath`) with the theme moved to the root — so entries can be copied raw under their theme-relative names.
 */
export async function withThemeAtRoot<T>(
  path: string,
  copyPath: string,
  limits: ThemeZipLimits,
  use: (theme: OpenTheme) => Promise<T>,
): Promise<T> {
  const atRoot = await withTheme(path, limits, async (theme) =>
    theme.scan.prefix === '' ? { value: await use(theme) } : null,
  );
  if (atRoot !== null) return atRoot.value;
  await repackThemeAtRoot(path, copyPath, limits);
  return withTheme(copyPath, limits, use);
}

/** Opens and checks a theme zip (the zip scan: limits, paths, entry types…), runs `use`, closes it. */
export function withTheme<T>(path: string, limits: ThemeZipLimits, use: (theme: OpenTheme) => Promise<T>): Promise<T> {
  return withScannedThemeZip(path, limits, async (scan, zipfile) => {
    // Small files are read straight from the zip (one read, one inflate); large ones through yauzl's stream.
    const handle = await open(path, 'r');
    const read = (item: ScannedEntry) =>
      item.entry.uncompressedSize <= DIRECT_READ_BYTES
        ? readEntryDirect(handle, item)
        : readEntryBytes(zipfile, item.entry);
    const byName = new Map(
      scan.entries
        .filter((item) => !item.entry.fileName.endsWith('/') && item.entry.fileName.startsWith(scan.prefix))
        .map((item) => [item.entry.fileName.slice(scan.prefix.length), item] as const),
    );
    const texts = new Map<string, string>();
    let budget = MAX_TEXT_BYTES_PER_ZIP;
    const theme: OpenTheme = {
      path,
      scan,
      zipfile,
      byName,
      async text(name) {
        const cached = texts.get(name);
        if (cached !== undefined) return cached;
        const item = byName.get(name);
        if (item === undefined) return undefined;
        const size = item.entry.uncompressedSize;
        if (size > MAX_TEXT_FILE_BYTES) {
          throw new ThemeUpdateError('theme_file_too_large', `${name} is too large (max 8 MB)`);
        }
        budget -= size;
        if (budget < 0) {
          throw new ThemeUpdateError('theme_file_too_large', 'The theme has too much JSON and Liquid (max 48 MB)');
        }
        const text = (await read(item)).toString('utf8');
        texts.set(name, text);
        return text;
      },
      async bytes(name, maxBytes) {
        const item = byName.get(name);
        if (item === undefined || item.entry.uncompressedSize > maxBytes) return undefined;
        return read(item);
      },
    };
    try {
      return await use(theme);
    } finally {
      await handle.close();
    }
  });
}

/** Reads the named texts of a theme (those it has), e.g. to build its schema. */
export async function readTexts(theme: OpenTheme, wanted: (name: string) => boolean): Promise<Map<string, string>> {
  const texts = new Map<string, string>();
  for (const name of theme.byName.keys()) {
    if (!wanted(name)) continue;
    const text = await theme.text(name);
    if (text !== undefined) texts.set(name, text);
  }
  return texts;
}
