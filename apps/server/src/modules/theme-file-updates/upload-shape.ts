/** The compression-ratio guard on a merchant's export, on top of the zip scan's size and entry-count limits. */
import { stat } from 'node:fs/promises';
import { AppError } from '../../http/errors';
import { withScannedThemeZip, type ThemeZipLimits } from '../../lib/theme-zip/scan';

/** A theme export is mostly text and images: far below this; a zip bomb is far above it. */
export const MAX_COMPRESSION_RATIO = 100;
/** Below this much declared content the ratio does not matter (a tiny zip of JSON can compress very well). */
export const RATIO_FREE_BYTES = 16 * 1024 * 1024;

export const ZIP_BOMB_MESSAGE =
  'This zip expands to far more than its size (a zip bomb?). Upload the theme export as is.';

/** Refuses a zip whose declared content is more than MAX_COMPRESSION_RATIO times its size (400 zip_bomb). */
export async function assertReasonableCompression(zipPath: string, limits: ThemeZipLimits): Promise<void> {
  const { size } = await stat(zipPath);
  const declared = await withScannedThemeZip(zipPath, limits, async (scan) =>
    scan.entries.reduce((sum, { entry }) => sum + entry.uncompressedSize, 0),
  );
  if (declared > RATIO_FREE_BYTES && declared > size * MAX_COMPRESSION_RATIO) {
    throw new AppError(400, ZIP_BOMB_MESSAGE, 'zip_bomb');
  }
}
