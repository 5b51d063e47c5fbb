import type { Readable } from 'node:stream';

/** A byte range, inclusive at both ends (as in HTTP Range), either end optional. */
export interface ByteRange {
  start?: number;
  end?: number;
}

/**
 * Where release zips are kept. Adapters: `local` (a directory under DATA_DIR, the zero-setup default) and `s3`
 * (an S3-compatible bucket, when S3_BUCKET is set). Keys are relative paths such as `pro/4.2.0-1a2b3c4d.zip`.
 */
export interface StoragePort {
  readonly name: 'local' | 's3';
  /**
   * Stores an object. A file path is moved into place when the adapter can (the file is gone afterwards); a stream
   * is consumed. Returns the stored size.
   */
  put(key: string, source: string | Readable): Promise<{ size: number }>;
  /** The object's bytes, or a range of them. Rejects with a StorageNotFoundError when the key is unknown. */
  createReadStream(key: string, range?: ByteRange): Promise<Readable>;
  /** The object's size, or null when the key is unknown. */
  stat(key: string): Promise<{ size: number } | null>;
  /**
   * A local file with the object's bytes, for readers that need random access (the zip rewrite). The local adapter
   * answers its own file; the s3 adapter downloads the object into a cache once and reuses it.
   */
  localPath(key: string): Promise<string>;
  /** Removes an object; unknown keys are ignored. */
  delete(key: string): Promise<void>;
}

export class StorageNotFoundError extends Error {
  override name = 'StorageNotFoundError';
  constructor(readonly key: string) {
    super(`No stored object for ${key}`);
  }
}

const KEY_SEGMENT = /^[A-Za-z0-9][A-Za-z0-9._+-]{0,127}$/;

/**
 * Keys are a few `/`-separated segments of safe characters: no `..`, no absolute paths, nothing a file system or a
 * bucket would read differently. Throws a RangeError otherwise (keys are made by the server, never by a client).
 */
export function assertStorageKey(key: string): void {
  const segments = key.split('/');
  const valid =
    key.length <= 512 &&
    segments.length <= 8 &&
    segments.every((segment) => KEY_SEGMENT.test(segment) && !segment.includes('..'));
  if (!valid) throw new RangeError(`Invalid storage key: ${JSON.stringify(key)}`);
}
