import fs from 'node:fs';
import path from 'node:path';
import { SERVER_BUNDLE, startPortal, TEMPLATE_DIR_VARIABLE, WEB_INDEX } from './server';

/**
 * Checks the build is there, then starts the built server once without the seed and stops it: its data directory,
 * an embedded database created and migrated, is the template each worker's portal copies (and seeds with its own
 * address). Returns the teardown.
 */
export default async function globalSetup() {
  for (const file of [SERVER_BUNDLE, WEB_INDEX]) {
    if (!fs.existsSync(file)) throw new Error(`${file} is missing: run \`npm run build\` before the browser tests`);
  }
  const template = await startPortal({ seed: false });
  await template.stop({ keepData: true });
  process.env[TEMPLATE_DIR_VARIABLE] = template.dataDir;
  return () => fs.rmSync(path.dirname(template.dataDir), { recursive: true, force: true });
}
