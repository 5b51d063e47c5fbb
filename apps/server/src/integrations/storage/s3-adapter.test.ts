/**
 * The S3 adapter without a network: its client configuration, and its caching and error handling against an
 * in-memory stand-in for the bucket. Real S3 (signing, multipart limits, provider quirks) is not exercised here.
 */
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { buffer, text } from 'node:stream/consumers';
import { DeleteObjectCommand, GetObjectCommand, HeadObjectCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../config';
import { StorageNotFoundError } from './port';
import { createS3Client, createS3StorageAdapter, type S3Sender, type S3StorageOptions } from './s3-adapter';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'keyport-s3-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

const options = (cacheDir: string): S3StorageOptions => ({
  bucket: 'themes',
  region: 'eu-west-1',
  endpoint: null,
  credentials: null,
  cacheDir,
});

/** An in-memory bucket answering the four commands the adapter sends. */
function memoryBucket() {
  const objects = new Map<string, Buffer>();
  const calls: { command: string; key: string; range?: string }[] = [];
  const missing = () =>
    Object.assign(new Error('NoSuchKey'), { name: 'NoSuchKey', $metadata: { httpStatusCode: 404 } });
  const send = async (command: unknown) => {
    if (command instanceof PutObjectCommand) {
      calls.push({ command: 'put', key: command.input.Key! });
      objects.set(command.input.Key!, await buffer(command.input.Body as Readable));
      return {};
    }
    if (command instanceof GetObjectCommand) {
      calls.push({ command: 'get', key: command.input.Key!, range: command.input.Range });
      const object = objects.get(command.input.Key!);
      if (!object) throw missing();
      const range = /^bytes=(\d+)-(\d*)$/.exec(command.input.Range ?? '');
      const body = range ? object.subarray(Number(range[1]), range[2] ? Number(range[2]) + 1 : undefined) : object;
      return { Body: Readable.from([body]) };
    }
    if (command instanceof HeadObjectCommand) {
      calls.push({ command: 'head', key: command.input.Key! });
      const object = objects.get(command.input.Key!);
      if (!object) throw Object.assign(new Error('NotFound'), { name: 'NotFound' });
      return { ContentLength: object.length };
    }
    if (command instanceof DeleteObjectCommand) {
      calls.push({ command: 'delete', key: command.input.Key! });
      objects.delete(command.input.Key!);
      return {};
    }
    throw new Error('unexpected command');
  };
  return { objects, calls, client: { send } as unknown as S3Sender };
}

describe('S3 configuration', () => {
  it('is chosen when S3_BUCKET is set; the local directory otherwise', () => {
    expect(loadConfig({ DATA_DIR: '/srv/keyport' }).storage).toEqual({
      kind: 'local',
      dir: path.resolve('/srv/keyport/releases'),
    });
    expect(
      loadConfig({
        DATA_DIR: '/srv/keyport',
        S3_BUCKET: 'themes',
        S3_ENDPOINT: 'https://minio.internal:9000',
        S3_ACCESS_KEY_ID: 'AKIA',
        S3_SECRET_ACCESS_KEY: 'secret',
      }).storage,
    ).toEqual({
      kind: 's3',
      bucket: 'themes',
      region: 'us-east-1',
      endpoint: 'https://minio.internal:9000',
      credentials: { accessKeyId: 'AKIA', secretAccessKey: 'secret' },
      cacheDir: path.resolve('/srv/keyport/cache/s3'),
    });
  });

  it('stops when only one of the two access key variables is set, or the endpoint is not a URL', () => {
    expect(() => loadConfig({ S3_BUCKET: 'themes', S3_ACCESS_KEY_ID: 'AKIA' })).toThrow(ConfigError);
    expect(() => loadConfig({ S3_BUCKET: 'themes', S3_ENDPOINT: 'not a url' })).toThrow(/S3_ENDPOINT/);
  });

  it('builds a client with the region, a path-style custom endpoint and the given credentials (no request made)', async () => {
    const client = await createS3Client({
      ...options(dir),
      endpoint: 'http://127.0.0.1:9000',
      credentials: { accessKeyId: 'AKIA', secretAccessKey: 'secret' },
    });
    expect(await client.config.region()).toBe('eu-west-1');
    expect(client.config.forcePathStyle).toBe(true);
    expect(await client.config.credentials()).toMatchObject({ accessKeyId: 'AKIA', secretAccessKey: 'secret' });
    const endpoint = await client.config.endpoint?.();
    expect(endpoint).toMatchObject({ hostname: '127.0.0.1', port: 9000, protocol: 'http:' });
    client.destroy();
  });
});

describe('S3 storage adapter (in-memory bucket)', () => {
  it('uploads a file with its length, keeps it as the cached copy and reads from that copy', async () => {
    const bucket = memoryBucket();
    const storage = createS3StorageAdapter(options(path.join(dir, 'cache-a')), bucket.client);
    const source = path.join(dir, 'upload-a.zip');
    await writeFile(source, 'theme zip bytes');
    expect(await storage.put('pro/4.2.0-a.zip', source)).toEqual({ size: 15 });
    expect(bucket.objects.get('pro/4.2.0-a.zip')?.toString()).toBe('theme zip bytes');
    await expect(stat(source)).rejects.toMatchObject({ code: 'ENOENT' });
    const local = await storage.localPath('pro/4.2.0-a.zip');
    expect(await readFile(local, 'utf8')).toBe('theme zip bytes');
    expect(await text(await storage.createReadStream('pro/4.2.0-a.zip', { start: 6, end: 8 }))).toBe('zip');
    expect(bucket.calls.map((call) => call.command)).toEqual(['put']);
  });

  it('downloads an object once into the cache, even for concurrent callers, then reuses it', async () => {
    const bucket = memoryBucket();
    bucket.objects.set('lite/1.0.0-b.zip', Buffer.from('from the bucket'));
    const storage = createS3StorageAdapter(options(path.join(dir, 'cache-b')), bucket.client);
    const [first, second] = await Promise.all([
      storage.localPath('lite/1.0.0-b.zip'),
      storage.localPath('lite/1.0.0-b.zip'),
    ]);
    expect(first).toBe(second);
    expect(await readFile(first, 'utf8')).toBe('from the bucket');
    await storage.localPath('lite/1.0.0-b.zip');
    expect(bucket.calls.filter((call) => call.command === 'get')).toHaveLength(1);
  });

  it('streams a range straight from the bucket when nothing is cached', async () => {
    const bucket = memoryBucket();
    bucket.objects.set('lite/1.0.0-c.zip', Buffer.from('0123456789'));
    const storage = createS3StorageAdapter(options(path.join(dir, 'cache-c')), bucket.client);
    expect(await text(await storage.createReadStream('lite/1.0.0-c.zip', { start: 3, end: 5 }))).toBe('345');
    expect(bucket.calls).toEqual([{ command: 'get', key: 'lite/1.0.0-c.zip', range: 'bytes=3-5' }]);
  });

  it('answers missing objects: stat null, read and localPath StorageNotFoundError; delete drops the cache too', async () => {
    const bucket = memoryBucket();
    const storage = createS3StorageAdapter(options(path.join(dir, 'cache-d')), bucket.client);
    expect(await storage.stat('pro/none.zip')).toBeNull();
    await expect(storage.createReadStream('pro/none.zip')).rejects.toBeInstanceOf(StorageNotFoundError);
    await expect(storage.localPath('pro/none.zip')).rejects.toBeInstanceOf(StorageNotFoundError);
    await storage.put('pro/gone.zip', Readable.from([Buffer.from('bytes')]));
    expect(await storage.stat('pro/gone.zip')).toEqual({ size: 5 });
    await storage.delete('pro/gone.zip');
    expect(bucket.objects.has('pro/gone.zip')).toBe(false);
    await expect(storage.localPath('pro/gone.zip')).rejects.toBeInstanceOf(StorageNotFoundError);
  });
});
