/** Shopify's theme-check (`@shopify/theme-check-node`, offline on its bundled docs) on a theme zip's files. */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { themeCheckRun } from '@shopify/theme-check-node';

/**
 * The errors (severity 0) theme-check reports on a theme, as `check: file: message` with theme-relative files, so
 * two themes' errors compare. The files are written to a temporary directory (theme-check reads a folder).
 */
export async function themeCheckErrors(files: ReadonlyMap<string, Buffer> | Record<string, Buffer>): Promise<string[]> {
  const root = await mkdtemp(path.join(os.tmpdir(), 'keyport-theme-check-'));
  try {
    const entries = files instanceof Map ? [...files] : Object.entries(files);
    for (const [name, bytes] of entries) {
      await mkdir(path.dirname(path.join(root, name)), { recursive: true });
      await writeFile(path.join(root, name), bytes);
    }
    const { offenses } = await themeCheckRun(root, undefined, () => undefined);
    const prefix = new URL(`file://${root}/`).href;
    return offenses
      .filter((offense) => offense.severity === 0)
      .map((offense) => `${offense.check}: ${offense.uri.replace(prefix, '')}: ${offense.message}`)
      .sort();
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}
