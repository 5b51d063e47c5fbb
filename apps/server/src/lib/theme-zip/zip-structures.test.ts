import { open, writeFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import * as yauzl from 'yauzl';
import {
  buildZipByHand,
  expectThemeZipError,
  expectUnzipTestPasses,
  listEntries,
  useTempDir,
} from '../../../test/helpers/theme-zip';
import {
  buildEndRecord,
  measureDataDescriptor,
  readEndRecord,
  readExactly,
  readLocalSpan,
  toDosDateTime,
  type LocalSpan,
} from './zip-structures';

const tempPath = useTempDir('zip-structures');

async function withFile<T>(bytes: Buffer, use: (handle: Awaited<ReturnType<typeof open>>, size: number) => Promise<T>) {
  const path = tempPath('bytes.zip');
  await writeFile(path, bytes);
  const handle = await open(path, 'r');
  try {
    return await use(handle, bytes.length);
  } finally {
    await handle.close();
  }
}

function descriptorBytes(words: number[]): Buffer {
  const buffer = Buffer.alloc(words.length * 4);
  words.forEach((word, index) => buffer.writeUInt32LE(word, index * 4));
  return buffer;
}

describe('measureDataDescriptor', () => {
  const facts = { crc32: 0x1234abcd, compressedSize: 100, uncompressedSize: 250 };

  it('recognises a signed (16 byte) descriptor', () => {
    expect(measureDataDescriptor(descriptorBytes([0x08074b50, 0x1234abcd, 100, 250]), facts)).toBe(16);
  });

  it('recognises an unsigned (12 byte) descriptor', () => {
    expect(measureDataDescriptor(descriptorBytes([0x1234abcd, 100, 250, 0x04034b50]), facts)).toBe(12);
    expect(measureDataDescriptor(descriptorBytes([0x1234abcd, 100, 250]), facts)).toBe(12);
  });

  it('handles a CRC that equals the descriptor signature', () => {
    const tricky = { crc32: 0x08074b50, compressedSize: 7, uncompressedSize: 9 };
    expect(measureDataDescriptor(descriptorBytes([0x08074b50, 7, 9, 0x02014b50]), tricky)).toBe(12);
    expect(measureDataDescriptor(descriptorBytes([0x08074b50, 0x08074b50, 7, 9]), tricky)).toBe(16);
  });

  it('returns null for mismatching or short bytes', () => {
    expect(measureDataDescriptor(descriptorBytes([0x08074b50, 0x1234abcd, 101, 250]), facts)).toBeNull();
    expect(measureDataDescriptor(descriptorBytes([0x1234abcd, 100]), facts)).toBeNull();
    expect(measureDataDescriptor(Buffer.alloc(0), facts)).toBeNull();
  });
});

describe('toDosDateTime', () => {
  it('round-trips through yauzl with 2-second precision', () => {
    const date = new Date(2024, 4, 17, 13, 45, 31);
    const { dosDate, dosTime } = toDosDateTime(date);
    expect(yauzl.dosDateTimeToDate(dosDate, dosTime)).toEqual(new Date(2024, 4, 17, 13, 45, 30));
  });

  it('clamps dates before 1980', () => {
    const { dosDate } = toDosDateTime(new Date(1970, 0, 1));
    expect(dosDate >> 9).toBe(0);
  });
});

describe('readEndRecord', () => {
  it('reads an empty archive with a comment', async () => {
    const bytes = buildEndRecord({
      entryCount: 0,
      centralDirectorySize: 0,
      centralDirectoryOffset: 0,
      comment: Buffer.from('hi'),
    });
    const record = await withFile(bytes, (handle, size) => readEndRecord(handle, size));
    expect(record).toEqual({
      offset: 0,
      entryCount: 0,
      centralDirectorySize: 0,
      centralDirectoryOffset: 0,
      comment: Buffer.from('hi'),
    });
  });

  it('rejects trailing bytes after the end record', async () => {
    const bytes = Buffer.concat([
      buildEndRecord({ entryCount: 0, centralDirectorySize: 0, centralDirectoryOffset: 0, comment: Buffer.alloc(0) }),
      Buffer.from('xx'),
    ]);
    await expectThemeZipError(
      withFile(bytes, (handle, size) => readEndRecord(handle, size)),
      'invalid_zip',
      /extra bytes/,
    );
  });

  it('rejects a zip64 locator and zip64 marker values', async () => {
    const locator = Buffer.alloc(20);
    locator.writeUInt32LE(0x07064b50, 0);
    const end = buildEndRecord({
      entryCount: 0,
      centralDirectorySize: 0,
      centralDirectoryOffset: 0,
      comment: Buffer.alloc(0),
    });
    await expectThemeZipError(
      withFile(Buffer.concat([locator, end]), (h, s) => readEndRecord(h, s)),
      'zip64_unsupported',
    );
    const marked = Buffer.from(end);
    marked.writeUInt32LE(0xffffffff, 16);
    await expectThemeZipError(
      withFile(marked, (h, s) => readEndRecord(h, s)),
      'zip64_unsupported',
    );
  });

  it('rejects files too small to be a zip', async () => {
    await expectThemeZipError(
      withFile(Buffer.from('PK'), (h, s) => readEndRecord(h, s)),
      'invalid_zip',
    );
  });
});

describe('record builders and readLocalSpan', () => {
  const entries = [
    { name: 'stored-plain.txt', content: 'hello', method: 0, descriptor: 'none' },
    { name: 'deflated-signed.txt', content: 'hello hello hello hello', method: 8, descriptor: 'signed' },
    { name: 'deflated-unsigned.txt', content: 'abcabcabcabcabc', method: 8, descriptor: 'unsigned' },
    { name: 'stored-unsigned.txt', content: 'tail', method: 0, descriptor: 'unsigned' },
  ] as const;

  it('builds a zip that unzip and yauzl accept', async () => {
    const path = tempPath('hand.zip');
    await writeFile(path, buildZipByHand([...entries]));
    await expectUnzipTestPasses(path);
    expect((await listEntries(path)).map((entry) => entry.fileName)).toEqual(entries.map((entry) => entry.name));
  });

  it('measures each local record including its descriptor', async () => {
    const bytes = buildZipByHand([...entries]);
    const path = tempPath('spans.zip');
    await writeFile(path, bytes);
    const listed = await listEntries(path);
    const handle = await open(path, 'r');
    try {
      const spans: LocalSpan[] = [];
      for (const entry of listed) {
        const facts = {
          fileName: entry.fileName,
          fileNameRaw: Buffer.from(entry.fileName),
          localHeaderOffset: entry.relativeOffsetOfLocalHeader,
          compressedSize: entry.compressedSize,
          uncompressedSize: entry.uncompressedSize,
          crc32: entry.crc32,
        };
        spans.push(
          await readLocalSpan(
            (position, length) => readExactly(handle, position, length),
            facts,
            bytes.readUInt32LE(bytes.length - 6),
          ),
        );
      }
      const descriptorLengths = spans.map((span, index) => {
        const entry = listed[index];
        return span.end - span.start - (30 + (entry?.fileName.length ?? 0) + (entry?.compressedSize ?? 0));
      });
      expect(descriptorLengths).toEqual([0, 16, 12, 12]);
      spans.slice(1).forEach((span, index) => expect(span.start).toBe(spans[index]?.end));
    } finally {
      await handle.close();
    }
  });

  it('rejects a local header whose name differs from the central directory', async () => {
    const bytes = buildZipByHand([{ name: 'a.txt', content: 'x', method: 0, descriptor: 'none' }]);
    const path = tempPath('mismatch.zip');
    await writeFile(path, bytes);
    const handle = await open(path, 'r');
    try {
      const facts = {
        fileName: 'b.txt',
        fileNameRaw: Buffer.from('b.txt'),
        localHeaderOffset: 0,
        compressedSize: 1,
        uncompressedSize: 1,
        crc32: 0,
      };
      await expectThemeZipError(
        readLocalSpan((position, length) => readExactly(handle, position, length), facts, bytes.length - 22),
        'invalid_zip',
        /do not match/,
      );
    } finally {
      await handle.close();
    }
  });
});
