/**
 * Themes sit at the zip root (`layout/`, `templates/`, `config/` …), as Shopify's theme upload and
 * `shopify theme package` expect. `repackThemeAtRoot` rewrites a zip whose theme sits in one top-level folder
 * (`aurora-pro/layout/theme.liquid`): every entry's data and data descriptor are copied raw — nothing is decompressed
 * or recompressed — and only the names lose the folder. The folder's own directory entry and macOS metadata
 * (`__MACOSX/`) are left out; any other file outside the folder is refused.
 */
import { open, rm, type FileHandle } from 'node:fs/promises';
import { ThemeZipError } from './errors';
import {
  DEFAULT_THEME_ZIP_LIMITS,
  centralFieldsOf,
  withScannedThemeZip,
  type RawEntry,
  type ScannedEntry,
  type ThemeZipLimits,
} from './scan';
import {
  FLAG_UTF8,
  LOCAL_HEADER_SIZE,
  assertOutputFits,
  buildCentralHeader,
  buildEndRecord,
  readExactly,
  readRangeChunks,
} from './zip-structures';

/** Info-ZIP Unicode Path extra field: the name in UTF-8 plus a CRC of the header's name (stale once renamed). */
const UNICODE_PATH_EXTRA_FIELD_ID = 0x7075;
const MACOS_METADATA_FOLDER = '__MACOSX/';
const COPY_CHUNK_BYTES = 512 * 1024;

export interface RepackedThemeZip {
  /** The folder that was removed from every name, e.g. 'aurora-pro/'. */
  removedPrefix: string;
  entryCount: number;
  bytes: number;
}

/**
 * Writes `outPath` (created; it must not exist) with the theme of `sourcePath` at the zip root. Answers null, and
 * writes nothing, when the theme already is at the root. Throws ThemeZipError for a zip that is not one theme.
 */
export async function repackThemeAtRoot(
  sourcePath: string,
  outPath: string,
  limits: ThemeZipLimits = DEFAULT_THEME_ZIP_LIMITS,
): Promise<RepackedThemeZip | null> {
  return withScannedThemeZip(sourcePath, limits, async (scan) => {
    const { prefix } = scan;
    if (prefix === '') return null;
    const kept = scan.entries.filter(({ entry }) => keepsEntry(entry.fileName, prefix));
    const source = await open(sourcePath, 'r');
    let output: FileHandle | null = null;
    try {
      output = await open(outPath, 'wx');
      const bytes = await writeRepacked(source, output, kept, prefix, scan.end.comment);
      return { removedPrefix: prefix, entryCount: kept.length, bytes };
    } catch (error) {
      if (output) {
        await output.close();
        output = null;
        await rm(outPath, { force: true });
      }
      throw error;
    } finally {
      await output?.close();
      await source.close();
    }
  });
}

/** False for the folder's own entry and macOS metadata; throws for a file beside the theme folder. */
function keepsEntry(name: string, prefix: string): boolean {
  if (name === prefix || name.startsWith(MACOS_METADATA_FOLDER)) return false;
  if (name.startsWith(prefix)) return true;
  throw new ThemeZipError(
    'outside_theme_folder',
    `The zip holds ${name} beside the theme folder ${prefix}; put only the theme in the zip (at its root or in one folder)`,
  );
}

async function writeRepacked(
  source: FileHandle,
  output: FileHandle,
  entries: ScannedEntry[],
  prefix: string,
  comment: Buffer,
): Promise<number> {
  const writer = new BufferedWriter(output);
  const centralHeaders: Buffer[] = [];
  for (const { entry, span } of entries) {
    const renamed = renameEntry(entry, prefix);
    const localHeader = await readExactly(source, span.start, span.dataStart - span.start);
    const offset = writer.position;
    await writer.write(rewriteLocalHeader(localHeader, renamed));
    for await (const chunk of readRangeChunks(source, span.dataStart, span.end - span.dataStart, COPY_CHUNK_BYTES)) {
      await writer.write(chunk);
    }
    centralHeaders.push(
      buildCentralHeader({
        ...centralFieldsOf(entry),
        flags: renamed.flags,
        fileName: renamed.name,
        extraField: renamed.dropUnicodePath ? withoutUnicodePath(entry.extraFieldRaw) : entry.extraFieldRaw,
        localHeaderOffset: offset,
      }),
    );
  }
  const centralDirectory = Buffer.concat(centralHeaders);
  const centralDirectoryOffset = writer.position;
  assertOutputFits(centralDirectoryOffset + centralDirectory.length, centralHeaders.length);
  await writer.write(centralDirectory);
  await writer.write(
    buildEndRecord({
      entryCount: centralHeaders.length,
      centralDirectorySize: centralDirectory.length,
      centralDirectoryOffset,
      comment,
    }),
  );
  await writer.flush();
  return writer.position;
}

interface RenamedEntry {
  name: Buffer;
  flags: number;
  /** True when the name was re-encoded as UTF-8: a Unicode Path extra field would contradict it. */
  dropUnicodePath: boolean;
}

/**
 * The name without the folder. An ASCII folder is cut off the raw bytes (the rest keeps its encoding, byte for byte);
 * otherwise the decoded name is written as UTF-8 with the UTF-8 flag.
 */
function renameEntry(entry: RawEntry, prefix: string): RenamedEntry {
  const hasUnicodePath = entry.extraFields.some((field) => field.id === UNICODE_PATH_EXTRA_FIELD_ID);
  // eslint-disable-next-line no-control-regex -- ASCII is exactly the range checked
  if (!hasUnicodePath && /^[\u0000-\u007f]*$/.test(prefix)) {
    return {
      name: entry.fileNameRaw.subarray(prefix.length),
      flags: entry.generalPurposeBitFlag,
      dropUnicodePath: false,
    };
  }
  return {
    name: Buffer.from(entry.fileName.slice(prefix.length), 'utf8'),
    flags: entry.generalPurposeBitFlag | FLAG_UTF8,
    dropUnicodePath: true,
  };
}

/** The original local header with the new flags, name and (when renamed as UTF-8) extra field. */
function rewriteLocalHeader(original: Buffer, renamed: RenamedEntry): Buffer {
  const nameLength = original.readUInt16LE(26);
  const extraLength = original.readUInt16LE(28);
  const extraStart = LOCAL_HEADER_SIZE + nameLength;
  const rawExtra = original.subarray(extraStart, extraStart + extraLength);
  const extra = renamed.dropUnicodePath ? withoutUnicodePath(rawExtra) : rawExtra;
  const fixed = Buffer.from(original.subarray(0, LOCAL_HEADER_SIZE));
  fixed.writeUInt16LE(renamed.flags, 6);
  fixed.writeUInt16LE(renamed.name.length, 26);
  fixed.writeUInt16LE(extra.length, 28);
  return Buffer.concat([fixed, renamed.name, extra]);
}

/** The extra field without Unicode Path blocks; kept as it is when it does not parse as blocks. */
function withoutUnicodePath(extra: Buffer): Buffer {
  const kept: Buffer[] = [];
  let index = 0;
  while (index + 4 <= extra.length) {
    const id = extra.readUInt16LE(index);
    const end = index + 4 + extra.readUInt16LE(index + 2);
    if (end > extra.length) return extra;
    if (id !== UNICODE_PATH_EXTRA_FIELD_ID) kept.push(extra.subarray(index, end));
    index = end;
  }
  return index === extra.length ? Buffer.concat(kept) : extra;
}

/** Sequential writes gathered into 512 KiB blocks, with the position written so far. */
export class BufferedWriter {
  position = 0;
  private pending: Buffer[] = [];
  private pendingBytes = 0;

  constructor(private readonly handle: FileHandle) {}

  async write(chunk: Buffer): Promise<void> {
    this.pending.push(chunk);
    this.pendingBytes += chunk.length;
    this.position += chunk.length;
    if (this.pendingBytes >= COPY_CHUNK_BYTES) await this.flush();
  }

  async flush(): Promise<void> {
    if (this.pendingBytes === 0) return;
    const block = Buffer.concat(this.pending, this.pendingBytes);
    this.pending = [];
    this.pendingBytes = 0;
    let written = 0;
    while (written < block.length) {
      const { bytesWritten } = await this.handle.write(block, written, block.length - written);
      written += bytesWritten;
    }
  }
}
