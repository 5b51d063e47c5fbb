/** Shopify's theme-check (`@shopify/theme-check-node`, offline on its bundled docs) on a theme zip's files. */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { loadConfig, themeCheckRun } from '@shopify/theme-check-node';

/**
 * theme-check's recommended configuration with only its error checks (severity 0) enabled, as YAML. The checks that
 * can only report warnings or information are switched off: the answer of `themeCheckErrors` is the same, and a run
 * on a Dawn release takes half the time (about 4 s instead of 8–9 on this machine).
 */
const errorsOnlyConfig = (async () => {
  const recommended = await loadConfig(undefined, os.tmpdir());
  const notErrors = Object.entries(recommended.settings)
    .filter(([, setting]) => setting?.enabled && setting.severity !== 0)
    .map(([check]) => `${check}:\n  enabled: false\n`);
  return `extends: theme-check:recommended\n${notErrors.join('')}`;
})();

/**
 * The errors (severity 0) theme-check reports on a theme, as `check: file: message` with theme-relative files, so
 * two themes' errors compare. The files are written to a temporary directory (theme-check reads a folder).
 */
export async function themeCheckErrors(files: ReadonlyMap<string, Buffer> | Record<string, Buffer>): Promise<string[]> {
  const folder = await mkdtemp(path.join(os.tmpdir(), 'keyport-theme-check-'));
  const root = path.join(folder, 'theme');
  const configPath = path.join(folder, 'theme-check.yml');
  try {
    const entries = files instanceof Map ? [...files] : Object.entries(files);
    for (const [name, bytes] of entries) {
      await mkdir(path.dirname(path.join(root, name)), { recursive: true });
      await writeFile(path.join(root, name), bytes);
    }
    await writeFile(configPath, await errorsOnlyConfig);
    const { offenses, theme } = await themeCheckRun(root, configPath, () => undefined);
    if (theme.length === 0) throw new Error('theme-check found no theme files');
    const prefix = new URL(`file://${root}/`).href;
    return offenses
      .filter((offense) => offense.severity === 0)
      .map((offense) => `${offense.check}: ${offense.uri.replace(prefix, '')}: ${offense.message}`)
      .sort();
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}
