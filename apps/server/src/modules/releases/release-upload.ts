/** Reading `POST /staff/releases` (multipart/form-data: edition, version, notes, file) into fields and a temp file. */
import { createWriteStream } from 'node:fs';
import { pipeline } from 'node:stream/promises';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { isTier, type Tier } from '@keyport/shared/domain/tiers';
import { AppError, badRequest } from '../../http/errors';
import { MAX_VERSION_LENGTH, isReleaseVersion } from './release-version';

export const MAX_NOTES_LENGTH = 5000;
/** Busboy limits: one file, a few small fields. */
export function multipartLimits(maxZipBytes: number) {
  return { fileSize: maxZipBytes, files: 1, fields: 8, fieldSize: 32 * 1024, parts: 12, headerPairs: 100 };
}

const ReleaseFieldsSchema = z.object({
  edition: z
    .string({ error: 'edition is required (LITE, REGULAR or PRO)' })
    .trim()
    .toUpperCase()
    .refine(isTier, 'edition must be LITE, REGULAR or PRO')
    .transform((value) => value as Tier),
  version: z
    .string({ error: 'version is required' })
    .trim()
    .refine(isReleaseVersion, `version must be a version such as 4.2.0 (at most ${MAX_VERSION_LENGTH} characters)`),
  notes: z.string().trim().max(MAX_NOTES_LENGTH, `notes must be at most ${MAX_NOTES_LENGTH} characters`).default(''),
});
export type ReleaseFields = z.infer<typeof ReleaseFieldsSchema>;

/**
 * Streams the request's one file part to `zipPath` (created; the caller removes it in every case) and returns the
 * validated fields. Client mistakes become 400 (413 when the file is over the limit), never 500.
 */
export async function receiveReleaseUpload(
  request: FastifyRequest,
  zipPath: string,
  maxZipBytes: number,
): Promise<ReleaseFields> {
  if (!request.isMultipart()) {
    throw badRequest('Send the release as multipart/form-data with the fields edition, version, notes and file.');
  }
  const fields: Record<string, string> = {};
  let sawFile = false;
  try {
    for await (const part of request.parts()) {
      if (part.type === 'file') {
        if (part.fieldname !== 'file') throw badRequest('Send the theme zip in the field "file".');
        sawFile = true;
        await pipeline(part.file, createWriteStream(zipPath, { flags: 'wx' }));
        if (part.file.truncated) throw tooLarge(maxZipBytes);
      } else {
        if (part.valueTruncated) throw badRequest(`${part.fieldname} is too long`);
        if (!Object.hasOwn(fields, part.fieldname)) fields[part.fieldname] = String(part.value);
      }
    }
  } catch (error) {
    throw toUploadError(error, maxZipBytes);
  }
  if (!sawFile) throw badRequest('Attach the theme zip in the field "file".');
  const parsed = ReleaseFieldsSchema.safeParse(fields);
  if (!parsed.success) throw badRequest(parsed.error.issues[0]?.message ?? 'Invalid release fields');
  return parsed.data;
}

function tooLarge(maxZipBytes: number): AppError {
  return new AppError(413, `The theme zip is too large (max ${formatSize(maxZipBytes)}).`);
}

/** Multipart and busboy failures are the client's; file system failures (a full disk) stay server errors. */
function toUploadError(error: unknown, maxZipBytes: number): unknown {
  if (error instanceof AppError) return error;
  const code = (error as { code?: unknown } | null)?.code;
  if (code === 'FST_REQ_FILE_TOO_LARGE') return tooLarge(maxZipBytes);
  if (code === 'FST_FILES_LIMIT') return badRequest('Upload one zip file per release.');
  if (typeof code === 'string' && code.startsWith('FST_')) {
    const status = (error as { statusCode?: number }).statusCode;
    const message = error instanceof Error ? error.message : 'Invalid upload';
    return status === 413 ? new AppError(413, message) : badRequest(message);
  }
  if (error instanceof Error && 'syscall' in error) return error;
  return badRequest('The upload was cut off or is not valid multipart/form-data.');
}

function formatSize(bytes: number): string {
  const round = (value: number) => Math.round(value * 10) / 10;
  if (bytes >= 1024 * 1024) return `${round(bytes / (1024 * 1024))} MB`;
  return bytes >= 1024 ? `${round(bytes / 1024)} KB` : `${bytes} bytes`;
}
