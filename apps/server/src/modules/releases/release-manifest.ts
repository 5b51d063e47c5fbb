/** The per-file sha256 manifest of a release zip: "added" and "edited" files of a merchant's theme are decided by it. */
import { createHash } from 'node:crypto';
import type { ZipFile } from 'yauzl';
import { withScannedThemeZip, type RawEntry, type ThemeZipLimits } from '../../lib/theme-zip/scan';

/** Theme-relative path (the zip's top-level folder, if any, removed) → sha256 of its bytes, hex. Files only. */
export type ReleaseManifest = Record<string, string>;

/** Reads every file of a theme zip once (checked by the zip scan: size limits, paths, CRCs) and hashes it. */
export async function computeReleaseManifest(zipPath: string, limits: ThemeZipLimits): Promise<ReleaseManifest> {
  return withScannedThemeZip(zipPath, limits, async (scan, zipfile) => {
    const manifest: ReleaseManifest = {};
    for (const { entry } of scan.entries) {
      if (entry.fileName.endsWith('/')) continue;
      if (!entry.fileName.startsWith(scan.prefix)) continue;
      manifest[entry.fileName.slice(scan.prefix.length)] = await hashEntry(zipfile, entry);
    }
    return manifest;
  });
}

function hashEntry(zipfile: ZipFile, entry: RawEntry): Promise<string> {
  return new Promise((resolve, reject) => {
    zipfile.openReadStream(entry, (error, stream) => {
      if (error) {
        reject(error);
        return;
      }
      const hash = createHash('sha256');
      stream.on('data', (chunk: Buffer) => hash.update(chunk));
      stream.once('error', reject);
      stream.once('end', () => resolve(hash.digest('hex')));
    });
  });
}
