import { createHash, randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type * as S3Sdk from '@aws-sdk/client-s3';
import type { S3Client, S3ClientConfig } from '@aws-sdk/client-s3';
import { StorageNotFoundError, assertStorageKey, type ByteRange, type StoragePort } from './port';

export interface S3StorageOptions {
  bucket: string;
  region: string;
  /** An S3-compatible endpoint (MinIO, R2, …); path-style addressing is used with it. */
  endpoint: string | null;
  /** Null: the SDK's default credential chain (environment, profile, instance role). */
  credentials: { accessKeyId: string; secretAccessKey: string } | null;
  /** Where objects are downloaded for random access (the zip rewrite), once per object. */
  cacheDir: string;
}

/** The part of S3Client the adapter uses. */
export type S3Sender = Pick<S3Client, 'send'>;

let sdk: Promise<typeof S3Sdk> | null = null;
/** The SDK is loaded on first use: about 25 MB and 0.1 s that a portal on local storage never needs. */
const loadSdk = () => (sdk ??= import('@aws-sdk/client-s3'));

export async function createS3Client(options: S3StorageOptions): Promise<S3Client> {
  const { S3Client } = await loadSdk();
  const config: S3ClientConfig = { region: options.region };
  if (options.endpoint) {
    config.endpoint = options.endpoint;
    config.forcePathStyle = true;
  }
  if (options.credentials) config.credentials = options.credentials;
  return new S3Client(config);
}

/**
 * Objects in an S3-compatible bucket. Release keys are never rewritten (each upload gets a new key), so a cached
 * copy stays valid for as long as the object exists.
 */
export function createS3StorageAdapter(options: S3StorageOptions, injectedClient?: S3Sender): StoragePort {
  const { bucket } = options;
  const downloads = new Map<string, Promise<string>>();
  let client: Promise<S3Sender> | null = injectedClient ? Promise.resolve(injectedClient) : null;
  const getClient = () => (client ??= createS3Client(options));

  const cacheFileOf = (key: string) => {
    assertStorageKey(key);
    return path.join(options.cacheDir, `${createHash('sha256').update(key).digest('hex')}.zip`);
  };

  async function upload(key: string, file: string): Promise<number> {
    const { size } = await stat(file);
    const { PutObjectCommand } = await loadSdk();
    await (
      await getClient()
    ).send(
      new PutObjectCommand({
        Bucket: bucket,
        Key: key,
        Body: createReadStream(file),
        ContentLength: size,
        ContentType: 'application/zip',
      }),
    );
    return size;
  }

  async function getObject(key: string, range?: ByteRange): Promise<Readable> {
    const { GetObjectCommand } = await loadSdk();
    try {
      const answer = await (
        await getClient()
      ).send(new GetObjectCommand({ Bucket: bucket, Key: key, Range: range ? toRangeHeader(range) : undefined }));
      if (!(answer.Body instanceof Readable)) throw new Error(`S3 returned no stream for ${key}`);
      return answer.Body;
    } catch (error) {
      throw isMissing(error) ? new StorageNotFoundError(key) : error;
    }
  }

  async function download(key: string, file: string): Promise<string> {
    await mkdir(path.dirname(file), { recursive: true });
    const partial = `${file}.partial-${randomBytes(6).toString('hex')}`;
    try {
      await pipeline(await getObject(key), createWriteStream(partial, { flags: 'wx' }));
      await rename(partial, file);
      return file;
    } catch (error) {
      await rm(partial, { force: true });
      throw error;
    }
  }

  return {
    name: 's3',

    async put(key, source) {
      const cached = cacheFileOf(key);
      await mkdir(path.dirname(cached), { recursive: true });
      // A stream's length is unknown to a single PUT: it is spooled to the cache first.
      const partial = `${cached}.partial-${randomBytes(6).toString('hex')}`;
      try {
        if (typeof source === 'string') await rename(source, partial);
        else await pipeline(source, createWriteStream(partial, { flags: 'wx' }));
        const size = await upload(key, partial);
        await rename(partial, cached);
        return { size };
      } catch (error) {
        await rm(partial, { force: true });
        throw error;
      }
    },

    async createReadStream(key, range) {
      const cached = cacheFileOf(key);
      if (await isFile(cached)) return createReadStream(cached, { start: range?.start, end: range?.end });
      return getObject(key, range);
    },

    async stat(key) {
      const { HeadObjectCommand } = await loadSdk();
      try {
        const head = await (await getClient()).send(new HeadObjectCommand({ Bucket: bucket, Key: key }));
        return { size: head.ContentLength ?? 0 };
      } catch (error) {
        if (isMissing(error)) return null;
        throw error;
      }
    },

    async localPath(key) {
      const cached = cacheFileOf(key);
      if (await isFile(cached)) return cached;
      // Concurrent first downloads of one object share one transfer.
      let pending = downloads.get(key);
      if (!pending) {
        pending = download(key, cached).finally(() => downloads.delete(key));
        downloads.set(key, pending);
      }
      return pending;
    },

    async delete(key) {
      const { DeleteObjectCommand } = await loadSdk();
      await (await getClient()).send(new DeleteObjectCommand({ Bucket: bucket, Key: key }));
      await rm(cacheFileOf(key), { force: true });
    },
  };
}

function toRangeHeader(range: ByteRange): string {
  return `bytes=${range.start ?? 0}-${range.end ?? ''}`;
}

async function isFile(file: string): Promise<boolean> {
  try {
    return (await stat(file)).isFile();
  } catch {
    return false;
  }
}

function isMissing(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const { name, $metadata } = error as { name?: string; $metadata?: { httpStatusCode?: number } };
  return name === 'NoSuchKey' || name === 'NotFound' || $metadata?.httpStatusCode === 404;
}
