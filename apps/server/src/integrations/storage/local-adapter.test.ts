import { mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { text } from 'node:stream/consumers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLocalStorageAdapter } from './local-adapter';
import { StorageNotFoundError, assertStorageKey, type StoragePort } from './port';

let dir: string;
let storage: StoragePort;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'keyport-storage-'));
  storage = createLocalStorageAdapter(path.join(dir, 'releases'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('local storage adapter', () => {
  it('stores a stream and reads it back whole, by range, by stat and by local path', async () => {
    const { size } = await storage.put('pro/4.2.0-abc.zip', Readable.from([Buffer.from('0123456789')]));
    expect(size).toBe(10);
    expect(await text(await storage.createReadStream('pro/4.2.0-abc.zip'))).toBe('0123456789');
    expect(await text(await storage.createReadStream('pro/4.2.0-abc.zip', { start: 2, end: 4 }))).toBe('234');
    expect(await text(await storage.createReadStream('pro/4.2.0-abc.zip', { start: 7 }))).toBe('789');
    expect(await storage.stat('pro/4.2.0-abc.zip')).toEqual({ size: 10 });
    const local = await storage.localPath('pro/4.2.0-abc.zip');
    expect(local).toBe(path.join(dir, 'releases', 'pro', '4.2.0-abc.zip'));
    expect(await readFile(local, 'utf8')).toBe('0123456789');
  });

  it('moves a file path into place, leaving no partial files behind', async () => {
    const source = path.join(dir, 'upload.zip');
    await writeFile(source, 'zip bytes');
    expect(await storage.put('lite/1.0.0-def.zip', source)).toEqual({ size: 9 });
    await expect(stat(source)).rejects.toMatchObject({ code: 'ENOENT' });
    expect(await readdir(path.join(dir, 'releases', 'lite'))).toEqual(['1.0.0-def.zip']);
  });

  it('replaces an object atomically when the same key is written again', async () => {
    await storage.put('regular/2.0.0-x.zip', Readable.from([Buffer.from('first')]));
    await storage.put('regular/2.0.0-x.zip', Readable.from([Buffer.from('second')]));
    expect(await text(await storage.createReadStream('regular/2.0.0-x.zip'))).toBe('second');
  });

  it('leaves nothing behind when the source stream fails', async () => {
    const failing = new Readable({
      read() {
        this.destroy(new Error('connection reset'));
      },
    });
    await expect(storage.put('pro/broken-1.zip', failing)).rejects.toThrow('connection reset');
    expect((await readdir(path.join(dir, 'releases', 'pro'))).filter((name) => name.startsWith('broken'))).toEqual([]);
  });

  it('answers unknown keys: stat null, read and localPath StorageNotFoundError, delete quietly', async () => {
    expect(await storage.stat('pro/missing.zip')).toBeNull();
    await expect(storage.createReadStream('pro/missing.zip')).rejects.toBeInstanceOf(StorageNotFoundError);
    await expect(storage.localPath('pro/missing.zip')).rejects.toBeInstanceOf(StorageNotFoundError);
    await expect(storage.delete('pro/missing.zip')).resolves.toBeUndefined();
  });

  it('deletes an object', async () => {
    await storage.put('pro/delete-me.zip', Readable.from([Buffer.from('x')]));
    await storage.delete('pro/delete-me.zip');
    expect(await storage.stat('pro/delete-me.zip')).toBeNull();
  });

  it.each([
    '../escape.zip',
    'pro/../../escape.zip',
    '/etc/passwd',
    'pro//x.zip',
    '',
    'pro/.hidden',
    'a\\b.zip',
    'pro/x y.zip',
  ])('refuses the key %j', async (key) => {
    expect(() => assertStorageKey(key)).toThrow(RangeError);
    await expect(storage.put(key, Readable.from([Buffer.from('x')]))).rejects.toThrow(RangeError);
    await expect(storage.stat(key)).rejects.toThrow(RangeError);
  });
});
