/**
 * Shopify theme zips: validation (`inspectThemeZip`) and per-customer copies with the license token written into
 * `config/settings_data.json` (`createTokenizedThemeZip`): every other entry is copied raw and keeps its place.
 */
import { open, stat } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { crc32, deflateRawSync } from 'node:zlib';
import {
  DEFAULT_LICENSE_SETTING_ID,
  planLicenseTokenEdit,
  writeLicenseToken,
  type LicenseTokenEdit,
} from './settings-data';
import {
  DEFAULT_THEME_ZIP_LIMITS,
  SETTINGS_DATA_FILE,
  assertSameFile,
  readIdentity,
  readSettingsText,
  readThemeName,
  verifyEntryContents,
  withScannedThemeZip,
  centralFieldsOf,
  type FileIdentity,
  type RawEntry,
  type ThemeZipLimits,
  type ThemeZipScan,
} from './scan';
import {
  FLAG_UTF8,
  buildCentralHeader,
  buildEndRecord,
  assertOutputFits,
  buildLocalHeader,
  readRangeChunks,
  toDosDateTime,
  type CentralHeaderFields,
} from './zip-structures';

export { DEFAULT_THEME_ZIP_LIMITS, type ThemeZipLimits } from './scan';

/** What `inspectThemeZip` learned about a valid theme zip. */
export interface ThemeZipInfo {
  entryCount: number;
  /** '' when the theme is at the zip root, else its single top-level folder, e.g. 'aurora-pro/'. */
  prefix: string;
  /** `theme_info.theme_name` from config/settings_schema.json, or null. */
  themeName: string | null;
  hasSettingsData: boolean;
}

export interface InspectOptions {
  /** Decompress every entry and check its CRC-32 (catches corrupt data). Default true. */
  verifyContents?: boolean;
}

export interface TokenizeOptions {
  /** The settings_data.json key that receives the token. Default 'license_token'. */
  settingId?: string;
  limits?: ThemeZipLimits;
}

export interface TokenizedThemeZip {
  /** Exact number of bytes `stream` will produce (for Content-Length). */
  contentLength: number;
  /** The new zip; reads the source file lazily, so memory use does not grow with its size. */
  stream: Readable;
}

const TIMESTAMP_EXTRA_FIELD_IDS = new Set([0x5455, 0x000a]);
const VERSION_MADE_BY_UNIX = (3 << 8) | 20;
const VERSION_NEEDED_DEFLATE = 20;
const METHOD_DEFLATE = 8;
const REGULAR_FILE_ATTRIBUTES = (0o100644 << 16) >>> 0;

/** Copied ranges are read in chunks this large: fewer reads per megabyte, and still little memory per download. */
const STREAM_CHUNK_BYTES = 512 * 1024;

type OutputPart = { kind: 'copy'; start: number; length: number } | { kind: 'bytes'; data: Buffer };

/** Validates a theme zip (structure, limits, safety, Shopify layout, data). Throws ThemeZipError. */
export async function inspectThemeZip(
  path: string,
  limits: ThemeZipLimits = DEFAULT_THEME_ZIP_LIMITS,
  options: InspectOptions = {},
): Promise<ThemeZipInfo> {
  return withScannedThemeZip(path, limits, async (scan, zipfile) => {
    if (options.verifyContents ?? true) await verifyEntryContents(zipfile, scan.entries);
    // A settings file the token cannot be written into is refused now, not at the first download.
    planLicenseTokenEdit(await readSettingsText(zipfile, scan.settingsData));
    return {
      entryCount: scan.entries.length,
      prefix: scan.prefix,
      themeName: await readThemeName(zipfile, scan.settingsSchema),
      hasSettingsData: scan.settingsData !== null,
    };
  });
}

/**
 * Builds a copy of the theme zip with the token in `<prefix>config/settings_data.json`. Every other entry's local
 * header, data and data descriptor are copied byte for byte; the settings entry is written anew at its original place
 * (at the end when the theme has none), then a new central directory.
 */
export async function createTokenizedThemeZip(
  path: string,
  token: string,
  opts: TokenizeOptions = {},
): Promise<TokenizedThemeZip> {
  return tokenizePreparedThemeZip(await prepareThemeZip(path, opts.limits), token, opts);
}

/**
 * What a tokenized copy needs from the source zip (its scan and settings text), read once. It can serve any number of
 * tokens while `isPreparedThemeZipCurrent` holds; each stream checks again that the file did not change.
 */
export interface PreparedThemeZip {
  readonly path: string;
  readonly scan: ThemeZipScan;
  readonly settingsText: string | null;
  /** Where the token goes in the settings text (for the default setting id), planned once. */
  readonly settingsEdit: LicenseTokenEdit;
}

export async function prepareThemeZip(
  path: string,
  limits: ThemeZipLimits = DEFAULT_THEME_ZIP_LIMITS,
): Promise<PreparedThemeZip> {
  return withScannedThemeZip(path, limits, async (scan, zipfile) => {
    const settingsText = await readSettingsText(zipfile, scan.settingsData);
    return { path, scan, settingsText, settingsEdit: planLicenseTokenEdit(settingsText) };
  });
}

/** True while the file at the prepared path is still the one that was scanned (same size, mtime and inode). */
export async function isPreparedThemeZipCurrent(prepared: PreparedThemeZip): Promise<boolean> {
  try {
    const stats = await stat(prepared.path);
    const { identity } = prepared.scan;
    return (
      stats.isFile() &&
      stats.size === identity.size &&
      stats.mtimeMs === identity.mtimeMs &&
      stats.ino === identity.ino &&
      stats.dev === identity.dev
    );
  } catch {
    return false;
  }
}

/** `createTokenizedThemeZip` from a prepared zip: no rescan, only the settings entry and central directory are new. */
export function tokenizePreparedThemeZip(
  prepared: PreparedThemeZip,
  token: string,
  opts: Pick<TokenizeOptions, 'settingId'> = {},
): TokenizedThemeZip {
  const settingId = opts.settingId ?? DEFAULT_LICENSE_SETTING_ID;
  const edit =
    settingId === DEFAULT_LICENSE_SETTING_ID
      ? prepared.settingsEdit
      : planLicenseTokenEdit(prepared.settingsText, settingId);
  const settingsJson = writeLicenseToken(edit, token);
  const parts = planTokenizedZip(prepared.scan, settingsJson);
  const contentLength = sumPartLengths(parts);
  const stream = Readable.from(streamParts(prepared.path, prepared.scan.identity, parts, contentLength), {
    objectMode: false,
    highWaterMark: 64 * 1024,
  });
  return { contentLength, stream };
}

/** The output as a list of source ranges to copy and new bytes, in order. */
function planTokenizedZip(scan: ThemeZipScan, settingsJson: string): OutputPart[] {
  const parts: OutputPart[] = [];
  const centralHeaders: Buffer[] = [];
  let offset = 0;
  const settings = buildSettingsEntry(scan, settingsJson);
  const pushSettings = () => {
    parts.push({ kind: 'bytes', data: settings.localRecord });
    centralHeaders.push(buildCentralHeader({ ...settings.central, localHeaderOffset: offset }));
    offset += settings.localRecord.length;
  };
  for (const { entry, span } of scan.entries) {
    if (entry === scan.settingsData) {
      pushSettings();
      continue;
    }
    const length = span.end - span.start;
    pushCopy(parts, span.start, length);
    centralHeaders.push(buildCentralHeader({ ...centralFieldsOf(entry), localHeaderOffset: offset }));
    offset += length;
  }
  if (scan.settingsData === null) pushSettings();
  const centralDirectory = Buffer.concat(centralHeaders);
  assertOutputFits(offset + centralDirectory.length, centralHeaders.length);
  parts.push({ kind: 'bytes', data: centralDirectory });
  parts.push({
    kind: 'bytes',
    data: buildEndRecord({
      entryCount: centralHeaders.length,
      centralDirectorySize: centralDirectory.length,
      centralDirectoryOffset: offset,
      comment: scan.end.comment,
    }),
  });
  return parts;
}

/** Appends a copy range, merging it with the previous one when contiguous. */
function pushCopy(parts: OutputPart[], start: number, length: number): void {
  const last = parts.at(-1);
  if (last?.kind === 'copy' && last.start + last.length === start) last.length += length;
  else parts.push({ kind: 'copy', start, length });
}

/**
 * The new settings entry: deflated, no data descriptor. Keeps the original entry's name
 * bytes, timestamps, attributes and timestamp extra fields when it existed.
 */
function buildSettingsEntry(
  scan: ThemeZipScan,
  json: string,
): { localRecord: Buffer; central: Omit<CentralHeaderFields, 'localHeaderOffset'> } {
  const original = scan.settingsData;
  const content = Buffer.from(json, 'utf8');
  const compressed = deflateRawSync(content);
  const { dosDate, dosTime } = toDosDateTime(new Date());
  const header = {
    versionNeeded: VERSION_NEEDED_DEFLATE,
    flags: original === null ? FLAG_UTF8 : original.generalPurposeBitFlag & FLAG_UTF8,
    method: METHOD_DEFLATE,
    dosTime: original?.lastModFileTime ?? dosTime,
    dosDate: original?.lastModFileDate ?? dosDate,
    crc32: crc32(content),
    compressedSize: compressed.length,
    uncompressedSize: content.length,
    fileName: original?.fileNameRaw ?? Buffer.from(scan.prefix + SETTINGS_DATA_FILE, 'utf8'),
  };
  const central = {
    ...header,
    versionMadeBy: original?.versionMadeBy ?? VERSION_MADE_BY_UNIX,
    internalAttributes: original?.internalFileAttributes ?? 0,
    externalAttributes: original?.externalFileAttributes ?? REGULAR_FILE_ATTRIBUTES,
    extraField: original === null ? Buffer.alloc(0) : keepTimestampExtras(original),
    comment: original?.fileCommentRaw ?? Buffer.alloc(0),
  };
  return { localRecord: Buffer.concat([buildLocalHeader(header), compressed]), central };
}

/** Re-encodes only the Info-ZIP (UT) and NTFS timestamp extra fields. */
function keepTimestampExtras(entry: RawEntry): Buffer {
  const kept = entry.extraFields.filter((field) => TIMESTAMP_EXTRA_FIELD_IDS.has(field.id));
  return Buffer.concat(
    kept.map((field) => {
      const head = Buffer.alloc(4);
      head.writeUInt16LE(field.id, 0);
      head.writeUInt16LE(field.data.length, 2);
      return Buffer.concat([head, field.data]);
    }),
  );
}

function sumPartLengths(parts: OutputPart[]): number {
  return parts.reduce((total, part) => total + (part.kind === 'copy' ? part.length : part.data.length), 0);
}

/** Streams the planned parts, reopening the source and checking it did not change. */
async function* streamParts(
  path: string,
  identity: FileIdentity,
  parts: OutputPart[],
  contentLength: number,
): AsyncGenerator<Buffer, void, undefined> {
  const handle = await open(path, 'r');
  try {
    assertSameFile(identity, await readIdentity(handle));
    let produced = 0;
    for (const part of parts) {
      if (part.kind === 'bytes') {
        produced += part.data.length;
        yield part.data;
        continue;
      }
      for await (const chunk of readRangeChunks(handle, part.start, part.length, STREAM_CHUNK_BYTES)) {
        produced += chunk.length;
        yield chunk;
      }
    }
    if (produced !== contentLength) throw new Error(`Tokenized zip length mismatch: ${produced} != ${contentLength}`);
  } finally {
    await handle.close();
  }
}
