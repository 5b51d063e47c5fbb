/**
 * The per-file sha256 manifest of a theme zip: theme-relative path (the zip's top-level folder, if any, removed) →
 * sha256 of the file's bytes, hex. Releases keep one (modules/releases); theme-file updates hash the merchant's
 * export the same way to tell which release it is and which files the merchant changed.
 */
import { createHash } from 'node:crypto';
import { open, type FileHandle } from 'node:fs/promises';
import { crc32, inflateRawSync } from 'node:zlib';
import type { ZipFile } from 'yauzl';
import { ThemeZipError } from './errors';
import { withScannedThemeZip, type RawEntry, type ScannedEntry, type ThemeZipLimits, type ThemeZipScan } from './scan';

export type ThemeManifest = Record<string, string>;

/** Reads every file of a theme zip once (checked by the zip scan: size limits, paths, CRCs) and hashes it. */
export async function computeThemeManifest(zipPath: string, limits: ThemeZipLimits): Promise<ThemeManifest> {
  return withScannedThemeZip(zipPath, limits, (scan, zipfile) => manifestOfScan(zipPath, scan, zipfile));
}

/** Stored (not deflated) entries are read in blocks of this size into one reused buffer. */
const STORED_BLOCK_BYTES = 1024 * 1024;
/** Deflated entries up to this size are read and inflated in one go (no stream: a theme's hundreds of small files). */
export const DIRECT_READ_BYTES = 1024 * 1024;

/**
 * The manifest of an open, scanned zip (at `zipPath`); every file is read once and its CRC-32 checked. Stored
 * entries (media, mostly) are read straight from the file into one reused buffer: hashing 50 MB of images costs no
 * 50 MB of garbage.
 */
export async function manifestOfScan(
  zipPath: string,
  scan: ThemeZipScan,
  zipfile: ZipFile,
  onFile?: (done: number, total: number) => void,
): Promise<ThemeManifest> {
  const manifest: ThemeManifest = {};
  const files = scan.entries.filter(
    ({ entry }) => !entry.fileName.endsWith('/') && entry.fileName.startsWith(scan.prefix),
  );
  const handle = await open(zipPath, 'r');
  try {
    const block = Buffer.allocUnsafe(STORED_BLOCK_BYTES);
    let done = 0;
    for (const item of files) {
      const { entry, span } = item;
      manifest[entry.fileName.slice(scan.prefix.length)] =
        entry.compressionMethod === 0
          ? await hashStored(handle, block, entry, span.dataStart)
          : entry.uncompressedSize <= DIRECT_READ_BYTES
            ? sha256(await readEntryDirect(handle, item))
            : await hashEntry(zipfile, entry);
      done += 1;
      onFile?.(done, files.length);
    }
  } finally {
    await handle.close();
  }
  return manifest;
}

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

/**
 * One (scanned) entry's bytes, read straight from the zip with `handle` and inflated at once; its size and CRC-32
 * checked (invalid_zip otherwise). For small entries: a stream per file costs more than the file.
 */
export async function readEntryDirect(handle: FileHandle, { entry, span }: ScannedEntry): Promise<Buffer> {
  const raw = Buffer.allocUnsafe(entry.compressedSize);
  for (let filled = 0; filled < raw.length;) {
    const { bytesRead } = await handle.read(raw, filled, raw.length - filled, span.dataStart + filled);
    if (bytesRead === 0) throw corrupt(entry.fileName, new Error('truncated'));
    filled += bytesRead;
  }
  let bytes: Buffer;
  try {
    bytes =
      entry.compressionMethod === 0
        ? raw
        : inflateRawSync(raw, { maxOutputLength: Math.max(1, entry.uncompressedSize) });
  } catch (error) {
    throw corrupt(entry.fileName, error);
  }
  if (bytes.length !== entry.uncompressedSize || crc32(bytes) !== entry.crc32) {
    throw corrupt(entry.fileName, new Error('size or CRC-32 mismatch'));
  }
  return bytes;
}

async function hashStored(handle: FileHandle, block: Buffer, entry: RawEntry, dataStart: number): Promise<string> {
  const hash = createHash('sha256');
  let checksum = 0;
  for (let offset = 0; offset < entry.compressedSize;) {
    const want = Math.min(block.length, entry.compressedSize - offset);
    const { bytesRead } = await handle.read(block, 0, want, dataStart + offset);
    if (bytesRead === 0) throw corrupt(entry.fileName, new Error('truncated'));
    const chunk = block.subarray(0, bytesRead);
    hash.update(chunk);
    checksum = crc32(chunk, checksum);
    offset += bytesRead;
  }
  if (entry.compressedSize !== entry.uncompressedSize || checksum !== entry.crc32) {
    throw corrupt(entry.fileName, new Error('CRC-32 mismatch'));
  }
  return hash.digest('hex');
}

/** sha256 of one entry's bytes; a CRC-32 mismatch (a corrupt zip) is refused as invalid_zip. */
function hashEntry(zipfile: ZipFile, entry: RawEntry): Promise<string> {
  return new Promise((resolve, reject) => {
    zipfile.openReadStream(entry, (error, stream) => {
      if (error) {
        reject(corrupt(entry.fileName, error));
        return;
      }
      const hash = createHash('sha256');
      let checksum = 0;
      stream.on('data', (chunk: Buffer) => {
        hash.update(chunk);
        checksum = crc32(chunk, checksum);
      });
      stream.once('error', (streamError: unknown) => reject(corrupt(entry.fileName, streamError)));
      stream.once('end', () => {
        if (checksum === entry.crc32) resolve(hash.digest('hex'));
        else reject(corrupt(entry.fileName, new Error('CRC-32 mismatch')));
      });
    });
  });
}

function corrupt(name: string, cause: unknown): ThemeZipError {
  return new ThemeZipError('invalid_zip', `The file is not a valid zip archive: ${name} is corrupt`, { cause });
}
