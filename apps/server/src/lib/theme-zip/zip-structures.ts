/**
 * Low-level ZIP records (PKWARE APPNOTE 4.3): reading the end record and local
 * entry extents, and building headers. Classic (non-zip64) archives only.
 */
import type { FileHandle } from 'node:fs/promises';
import { ThemeZipError } from './errors';

const LOCAL_HEADER_SIGNATURE = 0x04034b50;
const CENTRAL_HEADER_SIGNATURE = 0x02014b50;
const END_RECORD_SIGNATURE = 0x06054b50;
const ZIP64_LOCATOR_SIGNATURE = 0x07064b50;
const DATA_DESCRIPTOR_SIGNATURE = 0x08074b50;

export const LOCAL_HEADER_SIZE = 30;
export const CENTRAL_HEADER_SIZE = 46;
export const END_RECORD_SIZE = 22;
export const ZIP64_LOCATOR_SIZE = 20;
export const MAX_UINT16 = 0xffff;
export const MAX_UINT32 = 0xffffffff;
/** General purpose flag bit 3: sizes and CRC follow the data in a data descriptor. */
export const FLAG_DATA_DESCRIPTOR = 0x0008;
/** General purpose flag bit 11: name and comment are UTF-8. */
export const FLAG_UTF8 = 0x0800;

const READ_CHUNK_BYTES = 64 * 1024;

/** The end of central directory record. */
export interface EndRecord {
  offset: number;
  entryCount: number;
  centralDirectorySize: number;
  centralDirectoryOffset: number;
  comment: Buffer;
}

/** What the central directory says about one entry, as needed to find its local record. */
export interface CentralFacts {
  fileName: string;
  fileNameRaw: Buffer;
  localHeaderOffset: number;
  compressedSize: number;
  uncompressedSize: number;
  crc32: number;
}

/** The byte range of one entry's local record: header, name, extra, data and descriptor. */
export interface LocalSpan {
  start: number;
  dataStart: number;
  end: number;
  flags: number;
}

/** Fields of a local file header (no extra field is written). */
export interface LocalHeaderFields {
  versionNeeded: number;
  flags: number;
  method: number;
  dosTime: number;
  dosDate: number;
  crc32: number;
  compressedSize: number;
  uncompressedSize: number;
  fileName: Buffer;
}

/** Fields of a central directory file header. */
export interface CentralHeaderFields extends LocalHeaderFields {
  versionMadeBy: number;
  internalAttributes: number;
  externalAttributes: number;
  localHeaderOffset: number;
  extraField: Buffer;
  comment: Buffer;
}

/** Reads exactly `length` bytes at `position`; a short read means the file is truncated. */
export async function readExactly(handle: FileHandle, position: number, length: number): Promise<Buffer> {
  const buffer = Buffer.alloc(length);
  let filled = 0;
  while (filled < length) {
    const { bytesRead } = await handle.read(buffer, filled, length - filled, position + filled);
    if (bytesRead === 0) throw invalidZip('it is truncated');
    filled += bytesRead;
  }
  return buffer;
}

/** Reads `length` bytes at `position` (exactly; a short file is invalid). */
export type RangeReader = (position: number, length: number) => Promise<Buffer>;

/** Yields `length` bytes from `start` in fresh chunks of at most `chunkBytes` (64 KiB by default). */
export async function* readRangeChunks(
  handle: FileHandle,
  start: number,
  length: number,
  chunkBytes = READ_CHUNK_BYTES,
): AsyncGenerator<Buffer, void, undefined> {
  let offset = 0;
  while (offset < length) {
    const size = Math.min(chunkBytes, length - offset);
    yield await readExactly(handle, start + offset, size);
    offset += size;
  }
}

/** Finds and checks the end record. Rejects zip64, multi-disk and trailing-garbage archives. */
export async function readEndRecord(handle: FileHandle, fileSize: number): Promise<EndRecord> {
  if (fileSize < END_RECORD_SIZE) throw invalidZip();
  const tailLength = Math.min(fileSize, END_RECORD_SIZE + MAX_UINT16 + ZIP64_LOCATOR_SIZE);
  const tailStart = fileSize - tailLength;
  const tail = await readExactly(handle, tailStart, tailLength);
  const index = findEndRecordIndex(tail);
  if (index < 0) throw invalidZip();
  if (index >= ZIP64_LOCATOR_SIZE && tail.readUInt32LE(index - ZIP64_LOCATOR_SIZE) === ZIP64_LOCATOR_SIGNATURE) {
    throw zip64UnsupportedError();
  }
  return parseEndRecord(tail.subarray(index), tailStart + index);
}

function findEndRecordIndex(tail: Buffer): number {
  for (let index = tail.length - END_RECORD_SIZE; index >= 0; index -= 1) {
    if (tail.readUInt32LE(index) === END_RECORD_SIGNATURE) return index;
  }
  return -1;
}

function parseEndRecord(record: Buffer, offset: number): EndRecord {
  const commentLength = record.readUInt16LE(20);
  if (commentLength !== record.length - END_RECORD_SIZE) throw invalidZip('it has extra bytes after the end record');
  const entriesOnDisk = record.readUInt16LE(8);
  const entryCount = record.readUInt16LE(10);
  const centralDirectorySize = record.readUInt32LE(12);
  const centralDirectoryOffset = record.readUInt32LE(16);
  if (entryCount === MAX_UINT16 || centralDirectorySize === MAX_UINT32 || centralDirectoryOffset === MAX_UINT32) {
    throw zip64UnsupportedError();
  }
  if (record.readUInt16LE(4) !== 0 || record.readUInt16LE(6) !== 0 || entriesOnDisk !== entryCount) {
    throw invalidZip('multi-part archives are not supported');
  }
  if (centralDirectoryOffset + centralDirectorySize > offset) throw invalidZip();
  const comment = Buffer.from(record.subarray(END_RECORD_SIZE));
  return { offset, entryCount, centralDirectorySize, centralDirectoryOffset, comment };
}

/**
 * Measures one entry's local record and checks it agrees with the central directory.
 * `limit` is where the local records must end (the central directory offset).
 */
export async function readLocalSpan(read: RangeReader, facts: CentralFacts, limit: number): Promise<LocalSpan> {
  const start = facts.localHeaderOffset;
  const headerAndName = LOCAL_HEADER_SIZE + facts.fileNameRaw.length;
  if (start + headerAndName > limit) throw inconsistentEntry(facts.fileName);
  const header = await read(start, headerAndName);
  assertLocalHeaderMatches(header, facts);
  const flags = header.readUInt16LE(6);
  const dataStart = start + headerAndName + header.readUInt16LE(28);
  const dataEnd = dataStart + facts.compressedSize;
  if (dataEnd > limit) throw inconsistentEntry(facts.fileName);
  const descriptorLength =
    (flags & FLAG_DATA_DESCRIPTOR) === 0 ? 0 : await readDescriptorLength(read, facts, dataEnd, limit);
  return { start, dataStart, end: dataEnd + descriptorLength, flags };
}

function assertLocalHeaderMatches(header: Buffer, facts: CentralFacts): void {
  const nameLength = header.readUInt16LE(26);
  const name = header.subarray(LOCAL_HEADER_SIZE);
  if (
    header.readUInt32LE(0) !== LOCAL_HEADER_SIGNATURE ||
    nameLength !== facts.fileNameRaw.length ||
    !name.equals(facts.fileNameRaw)
  ) {
    throw inconsistentEntry(facts.fileName);
  }
}

async function readDescriptorLength(
  read: RangeReader,
  facts: CentralFacts,
  dataEnd: number,
  limit: number,
): Promise<number> {
  const available = Math.min(16, limit - dataEnd);
  const bytes = await read(dataEnd, available);
  const length = measureDataDescriptor(bytes, facts);
  if (length === null) throw invalidZip(`the data descriptor of ${facts.fileName} is corrupt`);
  return length;
}

/** 16 (with signature) or 12 (without) when `bytes` start with a descriptor matching `facts`; else null. */
export function measureDataDescriptor(
  bytes: Buffer,
  facts: Pick<CentralFacts, 'crc32' | 'compressedSize' | 'uncompressedSize'>,
): number | null {
  const matchesAt = (offset: number): boolean =>
    bytes.length >= offset + 12 &&
    bytes.readUInt32LE(offset) === facts.crc32 &&
    bytes.readUInt32LE(offset + 4) === facts.compressedSize &&
    bytes.readUInt32LE(offset + 8) === facts.uncompressedSize;
  if (bytes.length >= 16 && bytes.readUInt32LE(0) === DATA_DESCRIPTOR_SIGNATURE && matchesAt(4)) return 16;
  if (matchesAt(0)) return 12;
  return null;
}

/** A local file header followed by the file name. */
export function buildLocalHeader(fields: LocalHeaderFields): Buffer {
  const header = Buffer.alloc(LOCAL_HEADER_SIZE);
  header.writeUInt32LE(LOCAL_HEADER_SIGNATURE, 0);
  header.writeUInt16LE(fields.versionNeeded, 4);
  header.writeUInt16LE(fields.flags, 6);
  header.writeUInt16LE(fields.method, 8);
  header.writeUInt16LE(fields.dosTime, 10);
  header.writeUInt16LE(fields.dosDate, 12);
  header.writeUInt32LE(fields.crc32, 14);
  header.writeUInt32LE(fields.compressedSize, 18);
  header.writeUInt32LE(fields.uncompressedSize, 22);
  header.writeUInt16LE(fields.fileName.length, 26);
  header.writeUInt16LE(0, 28);
  return Buffer.concat([header, fields.fileName]);
}

/** A central directory file header followed by name, extra field and comment. */
export function buildCentralHeader(fields: CentralHeaderFields): Buffer {
  const header = Buffer.alloc(CENTRAL_HEADER_SIZE);
  header.writeUInt32LE(CENTRAL_HEADER_SIGNATURE, 0);
  header.writeUInt16LE(fields.versionMadeBy, 4);
  header.writeUInt16LE(fields.versionNeeded, 6);
  header.writeUInt16LE(fields.flags, 8);
  header.writeUInt16LE(fields.method, 10);
  header.writeUInt16LE(fields.dosTime, 12);
  header.writeUInt16LE(fields.dosDate, 14);
  header.writeUInt32LE(fields.crc32, 16);
  header.writeUInt32LE(fields.compressedSize, 20);
  header.writeUInt32LE(fields.uncompressedSize, 24);
  header.writeUInt16LE(fields.fileName.length, 28);
  header.writeUInt16LE(fields.extraField.length, 30);
  header.writeUInt16LE(fields.comment.length, 32);
  header.writeUInt16LE(0, 34);
  header.writeUInt16LE(fields.internalAttributes, 36);
  header.writeUInt32LE(fields.externalAttributes, 38);
  header.writeUInt32LE(fields.localHeaderOffset, 42);
  return Buffer.concat([header, fields.fileName, fields.extraField, fields.comment]);
}

/** The end of central directory record (classic format). */
export function buildEndRecord(record: Omit<EndRecord, 'offset'>): Buffer {
  const buffer = Buffer.alloc(END_RECORD_SIZE);
  buffer.writeUInt32LE(END_RECORD_SIGNATURE, 0);
  buffer.writeUInt16LE(record.entryCount, 8);
  buffer.writeUInt16LE(record.entryCount, 10);
  buffer.writeUInt32LE(record.centralDirectorySize, 12);
  buffer.writeUInt32LE(record.centralDirectoryOffset, 16);
  buffer.writeUInt16LE(record.comment.length, 20);
  return Buffer.concat([buffer, record.comment]);
}

/** MS-DOS date and time (local time, 2-second precision, years 1980–2107). */
export function toDosDateTime(date: Date): { dosDate: number; dosTime: number } {
  const year = Math.min(Math.max(date.getFullYear(), 1980), 2107);
  const dosDate = ((year - 1980) << 9) | ((date.getMonth() + 1) << 5) | date.getDate();
  const dosTime = (date.getHours() << 11) | (date.getMinutes() << 5) | Math.floor(date.getSeconds() / 2);
  return { dosDate, dosTime };
}

/** A written archive must stay a classic one: below 4 GiB before its end record, fewer than 65535 entries. */
export function assertOutputFits(totalWithoutEnd: number, entryCount: number): void {
  if (totalWithoutEnd >= MAX_UINT32 || entryCount >= MAX_UINT16) {
    throw new ThemeZipError('output_too_large', 'The theme zip would need ZIP64, which is not supported');
  }
}

function invalidZip(detail?: string): ThemeZipError {
  const message =
    detail === undefined ? 'The file is not a valid zip archive' : `The file is not a valid zip archive: ${detail}`;
  return new ThemeZipError('invalid_zip', message);
}

export function zip64UnsupportedError(): ThemeZipError {
  return new ThemeZipError(
    'zip64_unsupported',
    'ZIP64 archives are not supported; re-create the theme zip without ZIP64',
  );
}

function inconsistentEntry(fileName: string): ThemeZipError {
  return invalidZip(`the headers of ${fileName} do not match the central directory`);
}
