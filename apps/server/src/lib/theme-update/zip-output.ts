/**
 * Writing the upgrade's zips: entries copied raw from an open theme zip (local header, data, data descriptor: no
 * recompression) or new texts (deflated), then the central directory. Written to `<path>.<random>.partial` and
 * renamed at the end: never a half-built file.
 */
import { randomBytes } from 'node:crypto';
import { open, rename, rm, type FileHandle } from 'node:fs/promises';
import { crc32, deflateRawSync } from 'node:zlib';
import { BufferedWriter } from '../theme-zip/repack';
import { centralFieldsOf, type ScannedEntry } from '../theme-zip/scan';
import {
  FLAG_UTF8,
  assertOutputFits,
  buildCentralHeader,
  buildEndRecord,
  buildLocalHeader,
  readRangeChunks,
  toDosDateTime,
} from '../theme-zip/zip-structures';

const COPY_CHUNK_BYTES = 512 * 1024;

/** One entry of a written zip: a raw copy from the zip at `from`, or a new text. */
export type OutputPart =
  { kind: 'raw'; from: string; item: ScannedEntry } | { kind: 'new'; name: string; text: string };

/** Writes the entries to `path` through a temporary file renamed at the end: never a half-built zip. */
export async function writeZipAtomically(path: string, parts: OutputPart[]): Promise<void> {
  const temporary = `${path}.${randomBytes(6).toString('hex')}.partial`;
  const output = await open(temporary, 'wx');
  try {
    await writeEntries(output, parts);
    await output.close();
    await rename(temporary, path);
  } catch (error) {
    await output.close().catch(() => undefined);
    await rm(temporary, { force: true });
    throw error;
  }
}

async function writeEntries(output: FileHandle, parts: OutputPart[]): Promise<void> {
  const writer = new BufferedWriter(output);
  const centralHeaders: Buffer[] = [];
  const handles = new Map<string, FileHandle>();
  let block: Buffer | undefined;
  try {
    for (const part of parts) {
      const offset = writer.position;
      if (part.kind === 'new') {
        const entry = buildNewEntry(part.name, part.text);
        await writer.write(entry.local);
        centralHeaders.push(buildCentralHeader({ ...entry.central, localHeaderOffset: offset }));
        continue;
      }
      let handle = handles.get(part.from);
      if (handle === undefined) {
        handle = await open(part.from, 'r');
        handles.set(part.from, handle);
      }
      const { span, entry } = part.item;
      const length = span.end - span.start;
      if (length < COPY_CHUNK_BYTES) {
        for await (const chunk of readRangeChunks(handle, span.start, length, COPY_CHUNK_BYTES)) {
          await writer.write(chunk);
        }
      } else {
        // A large entry (media): straight from file to file through one reused block, not through the writer.
        await writer.flush();
        await copyRange(handle, output, span.start, length, (block ??= Buffer.allocUnsafe(COPY_CHUNK_BYTES)));
        writer.position += length;
      }
      centralHeaders.push(buildCentralHeader({ ...centralFieldsOf(entry), localHeaderOffset: offset }));
    }
    const centralDirectory = Buffer.concat(centralHeaders);
    const centralDirectoryOffset = writer.position;
    assertOutputFits(centralDirectoryOffset + centralDirectory.length, centralHeaders.length);
    await writer.write(centralDirectory);
    await writer.write(
      buildEndRecord({
        entryCount: centralHeaders.length,
        centralDirectorySize: centralDirectory.length,
        centralDirectoryOffset,
        comment: Buffer.alloc(0),
      }),
    );
    await writer.flush();
  } finally {
    for (const handle of handles.values()) await handle.close();
  }
}

/** Copies `length` bytes from `start` of `from` to the end of what `to` has written (sequential writes). */
async function copyRange(from: FileHandle, to: FileHandle, start: number, length: number, block: Buffer) {
  for (let copied = 0; copied < length;) {
    const { bytesRead } = await from.read(block, 0, Math.min(block.length, length - copied), start + copied);
    if (bytesRead === 0) throw new Error('The zip was truncated while it was copied');
    for (let written = 0; written < bytesRead;) {
      written += (await to.write(block, written, bytesRead - written)).bytesWritten;
    }
    copied += bytesRead;
  }
}

const VERSION_MADE_BY_UNIX = (3 << 8) | 20;
const REGULAR_FILE_ATTRIBUTES = (0o100644 << 16) >>> 0;

function buildNewEntry(name: string, text: string) {
  const content = Buffer.from(text, 'utf8');
  const compressed = deflateRawSync(content);
  const { dosDate, dosTime } = toDosDateTime(new Date());
  const header = {
    versionNeeded: 20,
    flags: FLAG_UTF8,
    method: 8,
    dosTime,
    dosDate,
    crc32: crc32(content),
    compressedSize: compressed.length,
    uncompressedSize: content.length,
    fileName: Buffer.from(name, 'utf8'),
  };
  return {
    local: Buffer.concat([buildLocalHeader(header), compressed]),
    central: {
      ...header,
      versionMadeBy: VERSION_MADE_BY_UNIX,
      internalAttributes: 0,
      externalAttributes: REGULAR_FILE_ATTRIBUTES,
      extraField: Buffer.alloc(0),
      comment: Buffer.alloc(0),
    },
  };
}
