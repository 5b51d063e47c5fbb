/** Helpers shared by the theme zip tests (not used by production code). */
import { execFile } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { mkdtemp, open, rm, type FileHandle } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { promisify } from 'node:util';
import { crc32, deflateRawSync } from 'node:zlib';
import { afterAll, beforeAll, expect } from 'vitest';
import * as yauzl from 'yauzl';
import type { Entry } from 'yauzl';
import * as yazl from 'yazl';
import { ThemeZipError, type ThemeZipErrorCode } from '../../src/lib/theme-zip/errors';
import {
  FLAG_DATA_DESCRIPTOR,
  FLAG_UTF8,
  buildCentralHeader,
  buildEndRecord,
  buildLocalHeader,
  toDosDateTime,
} from '../../src/lib/theme-zip/zip-structures';

export const run = promisify(execFile);

/** Creates a temp dir for the test file (removed afterwards); returns a unique-path factory. */
export function useTempDir(label: string): (name: string) => string {
  let dir = '';
  let counter = 0;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), `keyport-${label}-`));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });
  return (name) => {
    counter += 1;
    return join(dir, `${counter}-${name}`);
  };
}

export interface RawZipEntry {
  name: string;
  flags: number;
  method: number;
  crc32: number;
  dosTime: number;
  dosDate: number;
  externalAttributes: number;
  extraFields: Array<{ id: number; data: Buffer }>;
  /** Local file header with name and extra field. */
  localHeader: Buffer;
  /** Raw (still compressed) file data. */
  data: Buffer;
  /** Data descriptor bytes (empty when bit 3 is not set). */
  descriptor: Buffer;
}

/** Writes `stream` to a file and returns the number of bytes it produced. */
export async function saveStream(stream: Readable, path: string): Promise<number> {
  let bytes = 0;
  const counting = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      bytes += chunk.length;
      callback(null, chunk);
    },
  });
  await pipeline(stream, counting, createWriteStream(path));
  return bytes;
}

export async function expectUnzipTestPasses(path: string): Promise<void> {
  const { stdout } = await run('unzip', ['-tq', path]);
  expect(stdout).toContain('No errors detected');
}

export async function unzipFile(zipPath: string, name: string): Promise<Buffer> {
  const { stdout } = await run('unzip', ['-p', zipPath, name], { encoding: 'buffer', maxBuffer: 64 * 1024 * 1024 });
  return stdout;
}

export function listEntries(path: string): Promise<Entry[]> {
  return new Promise((resolve, reject) => {
    yauzl.open(path, { lazyEntries: true }, (error, zipfile) => {
      if (error) return reject(error);
      const entries: Entry[] = [];
      zipfile.on('entry', (entry: Entry) => {
        entries.push(entry);
        zipfile.readEntry();
      });
      zipfile.once('end', () => resolve(entries));
      zipfile.once('error', reject);
      zipfile.readEntry();
    });
  });
}

/** Every entry's local header, raw data and data descriptor, read straight from the file. */
export async function readRawEntries(path: string): Promise<Map<string, RawZipEntry>> {
  const entries = await listEntries(path);
  const handle = await open(path, 'r');
  try {
    const result = new Map<string, RawZipEntry>();
    for (const entry of entries) {
      const fixed = await readAt(handle, entry.relativeOffsetOfLocalHeader, 30);
      const headerLength = 30 + fixed.readUInt16LE(26) + fixed.readUInt16LE(28);
      const localHeader = await readAt(handle, entry.relativeOffsetOfLocalHeader, headerLength);
      const dataStart = entry.relativeOffsetOfLocalHeader + headerLength;
      const data = await readAt(handle, dataStart, entry.compressedSize);
      const hasDescriptor = (fixed.readUInt16LE(6) & 8) !== 0;
      const descriptor = hasDescriptor ? await readAt(handle, dataStart + entry.compressedSize, 16) : Buffer.alloc(0);
      result.set(entry.fileName, {
        name: entry.fileName,
        flags: entry.generalPurposeBitFlag,
        method: entry.compressionMethod,
        crc32: entry.crc32,
        dosTime: entry.lastModFileTime,
        dosDate: entry.lastModFileDate,
        externalAttributes: entry.externalFileAttributes,
        extraFields: entry.extraFields,
        localHeader,
        data,
        descriptor,
      });
    }
    return result;
  } finally {
    await handle.close();
  }
}

async function readAt(handle: FileHandle, position: number, length: number): Promise<Buffer> {
  const buffer = Buffer.alloc(length);
  const { bytesRead } = await handle.read(buffer, 0, length, position);
  return buffer.subarray(0, bytesRead);
}

export async function expectThemeZipError(
  promise: Promise<unknown>,
  code: ThemeZipErrorCode,
  message?: RegExp,
): Promise<void> {
  const error = await promise.then(
    () => null,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(ThemeZipError);
  expect(error).toMatchObject({ code });
  if (message) expect(error instanceof Error ? error.message : '').toMatch(message);
}

/**
 * Writes a zip from name → content with yazl (buffers: no data descriptors). Empty files are stored, not deflated (as
 * zip tools do; deflating 20,000 empty entries one stream each took 5 s).
 */
export async function writeZip(
  path: string,
  files: Record<string, string | Buffer>,
  endOptions?: { forceZip64Format: boolean; comment: string },
): Promise<string> {
  const zip = new yazl.ZipFile();
  for (const [name, content] of Object.entries(files)) {
    const bytes = Buffer.isBuffer(content) ? content : Buffer.from(content);
    zip.addBuffer(bytes, name, { mtime: new Date('2024-01-02T03:04:06Z'), compress: bytes.length > 0 });
  }
  const written = pipeline(zip.outputStream, createWriteStream(path));
  zip.end(endOptions);
  await written;
  return path;
}

export interface HandMadeEntry {
  name: string;
  content: string;
  /** Deflate (8) or store (0). */
  method: 0 | 8;
  /** Data descriptor after the data: none, with signature (16 bytes) or without (12 bytes). */
  descriptor: 'none' | 'signed' | 'unsigned';
  /** The central header's "version made by" (default Unix, 3.0 → `(3 << 8) | 20`) and external attributes (default
   *  a regular file, mode 0644): a symlink is Unix mode 0o120777. */
  versionMadeBy?: number;
  externalAttributes?: number;
}

/** Builds a zip byte by byte (for descriptor variants no library writes). */
export function buildZipByHand(entries: HandMadeEntry[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const entry of entries) {
    const content = Buffer.from(entry.content);
    const data = entry.method === 8 ? deflateRawSync(content) : content;
    const fields = {
      versionNeeded: 20,
      flags: FLAG_UTF8 | (entry.descriptor === 'none' ? 0 : FLAG_DATA_DESCRIPTOR),
      method: entry.method,
      ...toDosDateTime(new Date(2024, 0, 2, 3, 4, 6)),
      crc32: crc32(content),
      compressedSize: data.length,
      uncompressedSize: content.length,
      fileName: Buffer.from(entry.name),
    };
    const localFields =
      entry.descriptor === 'none' ? fields : { ...fields, crc32: 0, compressedSize: 0, uncompressedSize: 0 };
    const record = Buffer.concat([buildLocalHeader(localFields), data, buildDescriptor(entry.descriptor, fields)]);
    locals.push(record);
    centrals.push(
      buildCentralHeader({
        ...fields,
        versionMadeBy: entry.versionMadeBy ?? (3 << 8) | 20,
        internalAttributes: 0,
        externalAttributes: entry.externalAttributes ?? (0o100644 << 16) >>> 0,
        localHeaderOffset: offset,
        extraField: Buffer.alloc(0),
        comment: Buffer.alloc(0),
      }),
    );
    offset += record.length;
  }
  const centralDirectory = Buffer.concat(centrals);
  const end = buildEndRecord({
    entryCount: entries.length,
    centralDirectorySize: centralDirectory.length,
    centralDirectoryOffset: offset,
    comment: Buffer.alloc(0),
  });
  return Buffer.concat([...locals, centralDirectory, end]);
}

function buildDescriptor(
  kind: HandMadeEntry['descriptor'],
  fields: { crc32: number; compressedSize: number; uncompressedSize: number },
): Buffer {
  if (kind === 'none') return Buffer.alloc(0);
  const body = Buffer.alloc(12);
  body.writeUInt32LE(fields.crc32, 0);
  body.writeUInt32LE(fields.compressedSize, 4);
  body.writeUInt32LE(fields.uncompressedSize, 8);
  if (kind === 'unsigned') return body;
  const signature = Buffer.alloc(4);
  signature.writeUInt32LE(0x08074b50, 0);
  return Buffer.concat([signature, body]);
}
