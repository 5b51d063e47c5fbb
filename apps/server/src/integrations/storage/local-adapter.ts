import { randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { copyFile, mkdir, open, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { StorageNotFoundError, assertStorageKey, type StoragePort } from './port';

/** Reads of 512 KiB: fewer system calls per megabyte streamed, little memory per download. */
const READ_CHUNK_BYTES = 512 * 1024;

/** The default adapter: objects are files under `dir` (DATA_DIR/releases). */
export function createLocalStorageAdapter(dir: string): StoragePort {
  const root = path.resolve(dir);

  function fileOf(key: string): string {
    assertStorageKey(key);
    const file = path.resolve(root, ...key.split('/'));
    if (!file.startsWith(root + path.sep)) throw new RangeError(`Invalid storage key: ${JSON.stringify(key)}`);
    return file;
  }

  return {
    name: 'local',

    async put(key, source) {
      const file = fileOf(key);
      await mkdir(path.dirname(file), { recursive: true });
      // Written beside the target and renamed: a reader never sees half an object.
      const partial = `${file}.partial-${randomBytes(6).toString('hex')}`;
      try {
        if (typeof source === 'string') await moveFile(source, partial);
        else {
          const out = createWriteStream(partial, { flags: 'wx' });
          // When the source fails first, the file may still be opening: wait until it is closed, so the clean-up
          // below removes it rather than racing its creation.
          await pipeline(source, out).catch(async (error: unknown) => {
            if (!out.closed) await new Promise<void>((resolve) => out.once('close', () => resolve()));
            throw error;
          });
        }
        await rename(partial, file);
      } catch (error) {
        await rm(partial, { force: true });
        throw error;
      }
      return { size: (await stat(file)).size };
    },

    async createReadStream(key, range = {}) {
      const handle = await open(fileOf(key), 'r').catch((error: unknown) => {
        throw isNotFound(error) ? new StorageNotFoundError(key) : error;
      });
      return handle.createReadStream({
        start: range.start,
        end: range.end,
        autoClose: true,
        highWaterMark: READ_CHUNK_BYTES,
      });
    },

    async stat(key) {
      return statFile(fileOf(key));
    },

    async localPath(key) {
      const file = fileOf(key);
      if (!(await statFile(file))) throw new StorageNotFoundError(key);
      return file;
    },

    async delete(key) {
      await rm(fileOf(key), { force: true });
    },
  };
}

async function statFile(file: string): Promise<{ size: number } | null> {
  try {
    const stats = await stat(file);
    return stats.isFile() ? { size: stats.size } : null;
  } catch (error) {
    if (isNotFound(error)) return null;
    throw error;
  }
}

/** Renames, or copies and removes when the source is on another file system. */
async function moveFile(from: string, to: string): Promise<void> {
  try {
    await rename(from, to);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EXDEV') throw error;
    await copyFile(from, to);
    await rm(from, { force: true });
  }
}

function isNotFound(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException | null)?.code;
  return code === 'ENOENT' || code === 'ENOTDIR';
}
