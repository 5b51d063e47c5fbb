/**
 * The per-file sha256 manifest of a theme zip: theme-relative path (the zip's top-level folder, if any, removed) →
 * sha256 of the file's bytes, hex. Releases keep one (modules/releases); theme-file upgrades hash the merchant's
 * export the same way to tell which release it is and which files the merchant changed.
 */
import { createHash } from 'node:crypto';
import { crc32 } from 'node:zlib';
import type { ZipFile } from 'yauzl';
import { ThemeZipError } from './errors';
import { withScannedThemeZip, type RawEntry, type ThemeZipLimits, type ThemeZipScan } from './scan';

export type ThemeManifest = Record<string, string>;

/** Reads every file of a theme zip once (checked by the zip scan: size limits, paths, CRCs) and hashes it. */
export async function computeThemeManifest(zipPath: string, limits: ThemeZipLimits): Promise<ThemeManifest> {
  return withScannedThemeZip(zipPath, limits, (scan, zipfile) => manifestOfScan(scan, zipfile));
}

/** The manifest of an open, scanned zip; every file is decompressed once and its CRC-32 checked. */
export async function manifestOfScan(
  scan: ThemeZipScan,
  zipfile: ZipFile,
  onFile?: (done: number, total: number) => void,
): Promise<ThemeManifest> {
  const manifest: ThemeManifest = {};
  const files = scan.entries.filter(
    ({ entry }) => !entry.fileName.endsWith('/') && entry.fileName.startsWith(scan.prefix),
  );
  let done = 0;
  for (const { entry } of files) {
    manifest[entry.fileName.slice(scan.prefix.length)] = await hashEntry(zipfile, entry);
    done += 1;
    onFile?.(done, files.length);
  }
  return manifest;
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
