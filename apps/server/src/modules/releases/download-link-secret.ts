import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

const SECRET_FILE = 'download-link.secret';

/**
 * The key that signs download links: DOWNLOAD_LINK_SECRET when configured, else 32 random bytes generated once and
 * kept in the data directory (mode 0600), so links survive a restart.
 */
export function loadDownloadLinkSecret(options: { configured: string | null; dataDir: string }): Buffer {
  if (options.configured) return Buffer.from(options.configured, 'utf8');
  const file = path.join(options.dataDir, SECRET_FILE);
  const existing = readSecret(file);
  if (existing) return existing;
  fs.mkdirSync(options.dataDir, { recursive: true });
  // Written aside and linked into place: a second process sees the whole file or none (then uses the first one's).
  const draft = `${file}.${process.pid}-${randomBytes(4).toString('hex')}`;
  fs.writeFileSync(draft, randomBytes(32).toString('base64url'), { flag: 'wx', mode: 0o600 });
  try {
    fs.linkSync(draft, file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  } finally {
    fs.rmSync(draft, { force: true });
  }
  const created = readSecret(file);
  if (!created) throw new Error(`The download link secret in ${file} is empty or too short; delete the file`);
  return created;
}

function readSecret(file: string): Buffer | null {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8').trim();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
  return text.length >= 32 ? Buffer.from(text, 'utf8') : null;
}
