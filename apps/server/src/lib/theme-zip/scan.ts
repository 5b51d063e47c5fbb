/**
 * Opens and checks a theme zip: end record, central directory (via yauzl), entry safety,
 * limits, the Shopify layout and every entry's local record extent.
 */
import { open, type FileHandle } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { crc32 } from 'node:zlib';
import * as yauzl from 'yauzl';
import type { Entry, ZipFile } from 'yauzl';
import { parseShopifyJson } from './settings-data';
import { ThemeZipError } from './errors';
import {
  MAX_UINT32,
  END_RECORD_SIZE,
  readEndRecord,
  readExactly,
  readLocalSpan,
  type RangeReader,
  readRangeChunks,
  zip64UnsupportedError,
  type CentralHeaderFields,
  type EndRecord,
  type LocalSpan,
} from './zip-structures';

/** Upper bounds checked before anything is decompressed. */
export interface ThemeZipLimits {
  /** Size of the zip file itself. Must stay below 4 GiB (no zip64). */
  maxBytes: number;
  maxEntries: number;
  /** Sum of the declared uncompressed sizes of all entries. */
  maxUncompressedBytes: number;
}

const MIB = 1024 * 1024;

/** Defaults when no limits are passed: room for the 250 MB benchmark theme and then some. */
export const DEFAULT_THEME_ZIP_LIMITS: ThemeZipLimits = {
  maxBytes: 512 * MIB,
  maxEntries: 20_000,
  maxUncompressedBytes: 2048 * MIB,
};

export const SETTINGS_DATA_FILE = 'config/settings_data.json';
const LAYOUT_FILE = 'layout/theme.liquid';
const SETTINGS_SCHEMA_FILE = 'config/settings_schema.json';
const MAX_JSON_FILE_BYTES = 8 * MIB;
const ZIP64_EXTRA_FIELD_ID = 0x0001;
const METHOD_STORED = 0;
const METHOD_DEFLATE = 8;

/** A yauzl entry with the raw name/extra/comment bytes yauzl ≥ 3 provides. */
export type RawEntry = Entry & { fileNameRaw: Buffer; extraFieldRaw: Buffer; fileCommentRaw: Buffer };

export interface ScannedEntry {
  entry: RawEntry;
  span: LocalSpan;
}

export interface FileIdentity {
  size: number;
  mtimeMs: number;
  ino: number;
  dev: number;
}

export interface ThemeZipScan {
  identity: FileIdentity;
  end: EndRecord;
  entries: ScannedEntry[];
  prefix: string;
  settingsData: RawEntry | null;
  settingsSchema: RawEntry | null;
}

/**
 * Opens, checks and scans the zip, runs `use` while yauzl is open, then closes everything.
 * Throws ThemeZipError for anything wrong with the file.
 */
export async function withScannedThemeZip<T>(
  path: string,
  limits: ThemeZipLimits,
  use: (scan: ThemeZipScan, zipfile: ZipFile) => Promise<T>,
): Promise<T> {
  const handle = await openZipFile(path);
  try {
    const identity = await readIdentity(handle);
    assertFileSize(identity.size, limits);
    const end = await readEndRecord(handle, identity.size);
    assertEntryCount(end.entryCount, limits);
    const zipfile = await openYauzl(handle, identity.size, await readCentralDirectory(handle, end));
    try {
      const scan = await scanThemeZip(handle, zipfile, { identity, end, limits });
      return await use(scan, zipfile);
    } finally {
      zipfile.close();
    }
  } finally {
    await handle.close();
  }
}

async function openZipFile(path: string): Promise<FileHandle> {
  try {
    return await open(path, 'r');
  } catch (error) {
    if (isErrnoCode(error, 'ENOENT')) {
      throw new ThemeZipError('zip_not_found', 'The theme zip file does not exist', { cause: error });
    }
    throw error;
  }
}

/** Size, mtime and inode: enough to notice the file was replaced or modified. */
export async function readIdentity(handle: FileHandle): Promise<FileIdentity> {
  const stats = await handle.stat();
  if (!stats.isFile()) throw new ThemeZipError('invalid_zip', 'The file is not a valid zip archive');
  return { size: stats.size, mtimeMs: stats.mtimeMs, ino: stats.ino, dev: stats.dev };
}

function assertFileSize(size: number, limits: ThemeZipLimits): void {
  if (size > limits.maxBytes || size >= MAX_UINT32) {
    throw new ThemeZipError('zip_too_large', `The theme zip is too large (max ${formatBytes(limits.maxBytes)})`);
  }
}

function assertEntryCount(count: number, limits: ThemeZipLimits): void {
  if (count > limits.maxEntries) {
    throw new ThemeZipError('too_many_entries', `The theme zip has too many entries (max ${limits.maxEntries})`);
  }
}

/** The central directory held in memory while yauzl reads it record by record (at most this large). */
const MAX_CACHED_CENTRAL_DIRECTORY = 8 * MIB;

/** The central directory and the end record (yauzl reads both, a few bytes at a time), or null when too large. */
async function readCentralDirectory(handle: FileHandle, end: EndRecord): Promise<CachedRange | null> {
  const length = end.offset + END_RECORD_SIZE - end.centralDirectoryOffset;
  if (length <= 0 || length > MAX_CACHED_CENTRAL_DIRECTORY) return null;
  return { start: end.centralDirectoryOffset, buffer: await readExactly(handle, end.centralDirectoryOffset, length) };
}

interface CachedRange {
  start: number;
  buffer: Buffer;
}

/** Lets yauzl read through our FileHandle; yauzl never closes it (we do). */
class FileHandleReader extends yauzl.RandomAccessReader {
  constructor(
    private readonly handle: FileHandle,
    private readonly cached: CachedRange | null,
  ) {
    super();
  }

  /**
   * Positional reads: a FileHandle read stream would close the handle when destroyed. A range inside the cached
   * central directory is served from memory (yauzl asks for every record's fields one small range at a time).
   */
  override _readStreamForRange(start: number, end: number): Readable {
    const cached = this.cached;
    if (cached && start >= cached.start && end <= cached.start + cached.buffer.length) {
      return Readable.from([cached.buffer.subarray(start - cached.start, end - cached.start)], { objectMode: false });
    }
    return Readable.from(readRangeChunks(this.handle, start, end - start), { objectMode: false });
  }

  override close(callback: (err: Error | null) => void): void {
    setImmediate(() => callback(null));
  }
}

function openYauzl(handle: FileHandle, size: number, cached: CachedRange | null): Promise<ZipFile> {
  const options = { lazyEntries: true, autoClose: false, validateEntrySizes: true, decodeStrings: true };
  return new Promise((resolve, reject) => {
    yauzl.fromRandomAccessReader(new FileHandleReader(handle, cached), size, options, (error, zipfile) => {
      if (error) reject(toThemeZipError(error));
      else resolve(zipfile);
    });
  });
}

async function scanThemeZip(
  handle: FileHandle,
  zipfile: ZipFile,
  context: { identity: FileIdentity; end: EndRecord; limits: ThemeZipLimits },
): Promise<ThemeZipScan> {
  const entries = await readCheckedEntries(zipfile, context.limits);
  const prefix = findThemePrefix(entries.map((entry) => entry.fileName));
  const scanned = await readLocalSpans(handle, entries, context.end.centralDirectoryOffset);
  return {
    identity: context.identity,
    end: context.end,
    entries: scanned,
    prefix,
    settingsData: findEntry(entries, prefix + SETTINGS_DATA_FILE),
    settingsSchema: findEntry(entries, prefix + SETTINGS_SCHEMA_FILE),
  };
}

/** Reads the central directory through yauzl, checking each entry and the limits. */
function readCheckedEntries(zipfile: ZipFile, limits: ThemeZipLimits): Promise<RawEntry[]> {
  return new Promise((resolve, reject) => {
    const entries: RawEntry[] = [];
    const names = new Set<string>();
    let uncompressedBytes = 0;
    zipfile.on('entry', (entry: Entry) => {
      try {
        const checked = checkEntry(entry, names);
        uncompressedBytes += checked.uncompressedSize;
        assertEntryCount(entries.length + 1, limits);
        assertUncompressedBytes(uncompressedBytes, limits);
        entries.push(checked);
        zipfile.readEntry();
      } catch (error) {
        reject(error instanceof Error ? error : new Error(String(error)));
      }
    });
    zipfile.once('end', () => {
      resolve(entries);
    });
    zipfile.once('error', (error: unknown) => {
      reject(toThemeZipError(error));
    });
    zipfile.readEntry();
  });
}

function checkEntry(entry: Entry, seenNames: Set<string>): RawEntry {
  if (!hasRawFields(entry)) throw new TypeError('yauzl did not provide raw entry fields (yauzl >= 3 is required)');
  assertSupportedEntry(entry);
  if (seenNames.has(entry.fileName)) {
    throw new ThemeZipError('duplicate_entry', `The theme zip contains ${entry.fileName} more than once`);
  }
  seenNames.add(entry.fileName);
  return entry;
}

function assertSupportedEntry(entry: Entry): void {
  const name = entry.fileName;
  if (isUnsafePath(name)) throw unsafePath(name);
  assertRegularEntry(entry);
  if (isZip64Entry(entry)) throw zip64UnsupportedError();
  if (entry.isEncrypted()) {
    throw new ThemeZipError(
      'encrypted_entry',
      `The theme zip contains an encrypted file (${name}); upload it without a password`,
    );
  }
  if (entry.compressionMethod !== METHOD_STORED && entry.compressionMethod !== METHOD_DEFLATE) {
    throw new ThemeZipError(
      'unsupported_compression',
      `The theme zip uses an unsupported compression method for ${name}; use standard (deflate) compression`,
    );
  }
}

/** Hosts whose external attributes carry a Unix mode in their high 16 bits (Info-ZIP on Unix, macOS). */
const UNIX_HOSTS = new Set([3, 19]);
const S_IFMT = 0o170000;
const S_IFREG = 0o100000;
const S_IFDIR = 0o040000;
const S_IFLNK = 0o120000;
const DOS_DIRECTORY = 0x10;

/**
 * Only regular files and folders: a symbolic link (`zip -y`), a FIFO, a device or a socket is refused, as unsafe as a
 * traversal path (a link unpacked by a careless tool points anywhere). The type is the Unix mode of the external
 * attributes; without one (MS-DOS attributes, or a zero mode) an entry is a file, or a folder when its name ends in
 * `/` — and a name ending in `/` must be a folder with no content.
 */
function assertRegularEntry(entry: Entry): void {
  const name = entry.fileName;
  const isFolderName = name.endsWith('/');
  const unixMode = UNIX_HOSTS.has(entry.versionMadeBy >>> 8) ? (entry.externalFileAttributes >>> 16) & S_IFMT : 0;
  const dosFolder = (entry.externalFileAttributes & DOS_DIRECTORY) !== 0;
  if (unixMode === S_IFLNK) throw unsupportedEntry(name, 'a symbolic link');
  if (unixMode !== 0 && unixMode !== S_IFREG && unixMode !== S_IFDIR) throw unsupportedEntry(name, 'a special file');
  const isFolder = unixMode === S_IFDIR || (unixMode === 0 && dosFolder);
  if (isFolder && !isFolderName) throw unsupportedEntry(name, 'a folder with the name of a file');
  if (isFolderName && (entry.uncompressedSize > 0 || unixMode === S_IFREG)) {
    throw unsupportedEntry(name, 'a file with the name of a folder');
  }
}

function unsupportedEntry(name: string, what: string): ThemeZipError {
  return new ThemeZipError(
    'unsupported_entry_type',
    `The theme zip contains ${JSON.stringify(name)}, which is ${what}; a theme holds regular files and folders only`,
  );
}

function assertUncompressedBytes(total: number, limits: ThemeZipLimits): void {
  if (total > limits.maxUncompressedBytes) {
    throw new ThemeZipError(
      'uncompressed_too_large',
      `The theme zip is too large when extracted (max ${formatBytes(limits.maxUncompressedBytes)})`,
    );
  }
}

function hasRawFields(entry: Entry): entry is RawEntry {
  const candidate: Partial<RawEntry> = entry;
  return (
    Buffer.isBuffer(candidate.fileNameRaw) &&
    Buffer.isBuffer(candidate.extraFieldRaw) &&
    Buffer.isBuffer(candidate.fileCommentRaw)
  );
}

/** Absolute paths, drive letters, `..` segments, backslashes and control characters. */
function isUnsafePath(name: string): boolean {
  return (
    name.length === 0 ||
    name.startsWith('/') ||
    /^[A-Za-z]:/.test(name) ||
    name.includes('\\') ||
    // eslint-disable-next-line no-control-regex -- rejecting control characters in entry names is the point
    /[\u0000-\u001f]/.test(name) ||
    name.split('/').includes('..')
  );
}

function isZip64Entry(entry: Entry): boolean {
  return (
    entry.extraFields.some((field) => field.id === ZIP64_EXTRA_FIELD_ID) ||
    entry.compressedSize >= MAX_UINT32 ||
    entry.uncompressedSize >= MAX_UINT32 ||
    entry.relativeOffsetOfLocalHeader >= MAX_UINT32
  );
}

/** '' if layout/theme.liquid is at the root, else the one top-level folder holding it. */
export function findThemePrefix(names: string[]): string {
  const prefix = findLayoutPrefix(names);
  for (const folder of ['config/', 'templates/']) {
    const required = prefix + folder;
    if (!names.some((name) => name.startsWith(required) && !name.endsWith('/'))) {
      throw notATheme(`${required} is missing`);
    }
  }
  return prefix;
}

function findLayoutPrefix(names: string[]): string {
  if (names.includes(LAYOUT_FILE)) return '';
  const prefixes = names
    .map((name) => /^([^/]+\/)layout\/theme\.liquid$/.exec(name)?.[1])
    .filter((prefix): prefix is string => prefix !== undefined && prefix !== '__MACOSX/');
  const [first, ...others] = prefixes;
  if (first === undefined) throw notATheme(`${LAYOUT_FILE} is missing`);
  if (others.length > 0) {
    throw new ThemeZipError(
      'multiple_themes',
      `The zip contains more than one theme (${prefixes.join(', ')}); upload one theme per zip`,
    );
  }
  return first;
}

function findEntry(entries: RawEntry[], name: string): RawEntry | null {
  return entries.find((entry) => entry.fileName === name) ?? null;
}

/** How far ahead the local headers of small entries are read at once. */
const HEADER_WINDOW_BYTES = 256 * 1024;

/**
 * Measures every entry's local record and rejects overlapping records. Headers are read in file order; while the next
 * header starts within HEADER_WINDOW_BYTES, one window serves them all (a theme's hundreds of small files cost a few
 * reads, not one each); past a large entry the next header is read on its own.
 */
async function readLocalSpans(handle: FileHandle, entries: RawEntry[], limit: number): Promise<ScannedEntry[]> {
  const starts = entries.map((entry) => entry.relativeOffsetOfLocalHeader).sort((a, b) => a - b);
  let window: { start: number; bytes: Buffer } | null = null;
  const read: RangeReader = async (position, length) => {
    if (window === null || position < window.start || position + length > window.start + window.bytes.length) {
      const next = firstAfter(starts, position);
      const ahead = next !== undefined && next - position <= HEADER_WINDOW_BYTES;
      const size = ahead ? Math.max(length, Math.min(HEADER_WINDOW_BYTES, limit - position)) : length;
      window = { start: position, bytes: await readExactly(handle, position, size) };
    }
    const from = position - window.start;
    return window.bytes.subarray(from, from + length);
  };
  const scanned: ScannedEntry[] = [];
  for (const entry of [...entries].sort((a, b) => a.relativeOffsetOfLocalHeader - b.relativeOffsetOfLocalHeader)) {
    const facts = {
      fileName: entry.fileName,
      fileNameRaw: entry.fileNameRaw,
      localHeaderOffset: entry.relativeOffsetOfLocalHeader,
      compressedSize: entry.compressedSize,
      uncompressedSize: entry.uncompressedSize,
      crc32: entry.crc32,
    };
    scanned.push({ entry, span: await readLocalSpan(read, facts, limit) });
  }
  assertNoOverlap(scanned.map((item) => item.span));
  // In the central directory's order, as before.
  const order = new Map(entries.map((entry, index) => [entry, index]));
  return scanned.sort((a, b) => order.get(a.entry)! - order.get(b.entry)!);
}

/** The first of the sorted `values` greater than `position` (binary search), or undefined. */
function firstAfter(values: number[], position: number): number | undefined {
  let low = 0;
  let high = values.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (values[middle]! <= position) low = middle + 1;
    else high = middle;
  }
  return values[low];
}

function assertNoOverlap(spans: LocalSpan[]): void {
  const sorted = [...spans].sort((a, b) => a.start - b.start);
  for (let index = 1; index < sorted.length; index += 1) {
    const previous = sorted[index - 1];
    const current = sorted[index];
    if (previous !== undefined && current !== undefined && current.start < previous.end) {
      throw new ThemeZipError('invalid_zip', 'The file is not a valid zip archive: entries overlap');
    }
  }
}

/** `theme_info.theme_name` from settings_schema.json; null when absent, unreadable JSON or too large. */
export async function readThemeName(zipfile: ZipFile, schema: RawEntry | null): Promise<string | null> {
  if (schema === null || schema.uncompressedSize > MAX_JSON_FILE_BYTES) return null;
  const text = (await readEntryBytes(zipfile, schema)).toString('utf8');
  try {
    return extractThemeName(parseShopifyJson(text).value);
  } catch {
    return null;
  }
}

function extractThemeName(schema: unknown): string | null {
  if (!Array.isArray(schema)) return null;
  const info: unknown = schema.find((section: unknown) => getField(section, 'name') === 'theme_info');
  const name = getField(info, 'theme_name');
  return typeof name === 'string' && name.trim() !== '' ? name.trim() : null;
}

function getField(value: unknown, key: string): unknown {
  if (typeof value !== 'object' || value === null || !Object.hasOwn(value, key)) return undefined;
  return (value as Record<string, unknown>)[key];
}

/** The original settings_data.json text, or null when the theme has none. */
export async function readSettingsText(zipfile: ZipFile, settings: RawEntry | null): Promise<string | null> {
  if (settings === null) return null;
  if (settings.uncompressedSize > MAX_JSON_FILE_BYTES) {
    throw new ThemeZipError(
      'settings_too_large',
      `config/settings_data.json is too large (max ${formatBytes(MAX_JSON_FILE_BYTES)})`,
    );
  }
  return (await readEntryBytes(zipfile, settings)).toString('utf8');
}

/** Decompresses one (size-checked) entry into memory. */
export async function readEntryBytes(zipfile: ZipFile, entry: RawEntry): Promise<Buffer> {
  const chunks: Buffer[] = [];
  await readEntryChunks(zipfile, entry, (chunk) => chunks.push(chunk));
  return Buffer.concat(chunks);
}

/** Decompresses every entry and checks sizes and CRC-32s. */
export async function verifyEntryContents(zipfile: ZipFile, entries: ScannedEntry[]): Promise<void> {
  for (const { entry } of entries) await readEntryChunks(zipfile, entry, () => undefined);
}

/** Decompresses an entry chunk by chunk and checks its CRC-32 (yauzl checks the size). */
function readEntryChunks(zipfile: ZipFile, entry: RawEntry, onChunk: (chunk: Buffer) => void): Promise<void> {
  return new Promise((resolve, reject) => {
    zipfile.openReadStream(entry, (openError, stream) => {
      if (openError) {
        reject(unreadableEntry(entry.fileName, openError));
        return;
      }
      let checksum = 0;
      stream.on('data', (chunk: Buffer) => {
        checksum = crc32(chunk, checksum);
        onChunk(chunk);
      });
      stream.once('error', (error: unknown) => {
        reject(unreadableEntry(entry.fileName, error));
      });
      stream.once('end', () => {
        if (checksum === entry.crc32) resolve();
        else reject(unreadableEntry(entry.fileName, new Error('CRC-32 mismatch')));
      });
    });
  });
}

/** Throws source_changed when the file is no longer the one that was scanned. */
export function assertSameFile(expected: FileIdentity, actual: FileIdentity): void {
  if (
    expected.size !== actual.size ||
    expected.mtimeMs !== actual.mtimeMs ||
    expected.ino !== actual.ino ||
    expected.dev !== actual.dev
  ) {
    throw new ThemeZipError('source_changed', 'The theme zip changed while the download was being prepared; try again');
  }
}

/** Maps yauzl's errors to ThemeZipError; ThemeZipErrors and file system errors pass through. */
function toThemeZipError(error: unknown): Error {
  if (error instanceof ThemeZipError) return error;
  if (error instanceof Error && isErrnoCode(error)) return error;
  const message = error instanceof Error ? error.message : String(error);
  const unsafe = /^(?:absolute path|invalid relative path|invalid characters in fileName): (.*)$/.exec(message);
  if (unsafe) return unsafePath(unsafe[1] ?? '', error);
  if (message.includes('strong encryption')) {
    return new ThemeZipError(
      'encrypted_entry',
      'The theme zip contains encrypted files; upload it without a password',
      {
        cause: error,
      },
    );
  }
  return new ThemeZipError('invalid_zip', 'The file is not a valid zip archive', { cause: error });
}

function isErrnoCode(error: unknown, code?: string): boolean {
  if (!(error instanceof Error) || !('code' in error) || typeof error.code !== 'string') return false;
  return code === undefined ? /^E[A-Z]+$/.test(error.code) : error.code === code;
}

function unsafePath(name: string, cause?: unknown): ThemeZipError {
  return new ThemeZipError('unsafe_entry_path', `The theme zip contains an unsafe file path: ${JSON.stringify(name)}`, {
    cause,
  });
}

function notATheme(detail: string): ThemeZipError {
  return new ThemeZipError('not_a_theme', `The zip does not look like a Shopify theme (${detail})`);
}

function unreadableEntry(name: string, cause: unknown): ThemeZipError {
  return new ThemeZipError('invalid_zip', `The file is not a valid zip archive: ${name} is corrupt`, { cause });
}

function formatBytes(bytes: number): string {
  return bytes >= MIB ? `${Math.round((bytes / MIB) * 10) / 10} MB` : `${bytes} bytes`;
}

/** The central directory fields of a scanned entry, to write it again (the local header offset is the writer's). */
export function centralFieldsOf(entry: RawEntry): Omit<CentralHeaderFields, 'localHeaderOffset'> {
  return {
    versionMadeBy: entry.versionMadeBy,
    versionNeeded: entry.versionNeededToExtract,
    flags: entry.generalPurposeBitFlag,
    method: entry.compressionMethod,
    dosTime: entry.lastModFileTime,
    dosDate: entry.lastModFileDate,
    crc32: entry.crc32,
    compressedSize: entry.compressedSize,
    uncompressedSize: entry.uncompressedSize,
    internalAttributes: entry.internalFileAttributes,
    externalAttributes: entry.externalFileAttributes,
    fileName: entry.fileNameRaw,
    extraField: entry.extraFieldRaw,
    comment: entry.fileCommentRaw,
  };
}
