/** A multipart upload of one zip file and a few small fields, streamed to a temp file (releases, theme upgrades). */
import { createWriteStream } from 'node:fs';
import { pipeline } from 'node:stream/promises';
import type { FastifyRequest } from 'fastify';
import { AppError, badRequest } from './errors';

export interface ZipUploadTexts {
  /** The request is not multipart/form-data. */
  notMultipart: string;
  /** A file came in another field. */
  wrongField: string;
  /** No file part at all; with its code. */
  missingFile: string;
  missingFileCode?: string;
  /** More than one file. */
  oneFile: string;
}

/**
 * Streams the request's one file part (field `fileField`) to `zipPath` (created with `wx`; the caller removes it in
 * every case) and returns the text fields as sent (the first of a repeated name). Client mistakes become 400 (413
 * `zip_too_large` over the limit), never 500; file system failures (a full disk) stay server errors.
 */
export async function receiveZipUpload(
  request: FastifyRequest,
  zipPath: string,
  maxZipBytes: number,
  fileField: string,
  texts: ZipUploadTexts,
): Promise<Record<string, string>> {
  if (!request.isMultipart()) throw badRequest(texts.notMultipart);
  const fields: Record<string, string> = {};
  let sawFile = false;
  try {
    for await (const part of request.parts()) {
      if (part.type === 'file') {
        if (part.fieldname !== fileField) throw badRequest(texts.wrongField);
        sawFile = true;
        await pipeline(part.file, createWriteStream(zipPath, { flags: 'wx' }));
        if (part.file.truncated) throw tooLarge(maxZipBytes);
      } else {
        if (part.valueTruncated) throw badRequest(`${part.fieldname} is too long`);
        if (!Object.hasOwn(fields, part.fieldname)) fields[part.fieldname] = String(part.value);
      }
    }
  } catch (error) {
    throw toUploadError(error, maxZipBytes, texts);
  }
  if (!sawFile) throw badRequest(texts.missingFile, texts.missingFileCode);
  return fields;
}

function tooLarge(maxZipBytes: number): AppError {
  return new AppError(413, `The theme zip is too large (max ${formatSize(maxZipBytes)}).`, 'zip_too_large');
}

function toUploadError(error: unknown, maxZipBytes: number, texts: ZipUploadTexts): unknown {
  if (error instanceof AppError) return error;
  const code = (error as { code?: unknown } | null)?.code;
  if (code === 'FST_REQ_FILE_TOO_LARGE') return tooLarge(maxZipBytes);
  if (code === 'FST_FILES_LIMIT') return badRequest(texts.oneFile);
  if (typeof code === 'string' && code.startsWith('FST_')) {
    const status = (error as { statusCode?: number }).statusCode;
    const message = error instanceof Error ? error.message : 'Invalid upload';
    return status === 413 ? new AppError(413, message, 'zip_too_large') : badRequest(message);
  }
  if (error instanceof Error && 'syscall' in error) return error;
  return badRequest('The upload was cut off or is not valid multipart/form-data.');
}

function formatSize(bytes: number): string {
  const round = (value: number) => Math.round(value * 10) / 10;
  if (bytes >= 1024 * 1024) return `${round(bytes / (1024 * 1024))} MB`;
  return bytes >= 1024 ? `${round(bytes / 1024)} KB` : `${bytes} bytes`;
}
