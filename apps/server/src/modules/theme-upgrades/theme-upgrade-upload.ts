/** Reading `POST /theme-upgrades` (multipart/form-data: target_key, source_key, move_connection, theme). */
import { createWriteStream } from 'node:fs';
import { pipeline } from 'node:stream/promises';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { AppError, badRequest } from '../../http/errors';

/** Busboy limits: one file, three small fields (as the release upload's). */
export function themeUploadLimits(maxZipBytes: number) {
  return { fileSize: maxZipBytes, files: 1, fields: 6, fieldSize: 1024, parts: 10, headerPairs: 100 };
}

const keyField = (name: string) =>
  z
    .string({ error: `${name} is required` })
    .trim()
    .min(1, `${name} is required`)
    .max(100, `${name} is too long`);

const FieldsSchema = z.object({
  target_key: keyField('target_key'),
  source_key: keyField('source_key'),
  move_connection: z
    .enum(['true', 'false'], { error: "move_connection must be 'true' or 'false'" })
    .default('false')
    .transform((value) => value === 'true'),
});
export type ThemeUpgradeFields = z.infer<typeof FieldsSchema>;

/**
 * Streams the one file part (`theme`) to `zipPath` (the caller removes it in every case) and returns the validated
 * fields. Client mistakes are 400 (413 over the limit), never 500.
 */
export async function receiveThemeUpgradeUpload(
  request: FastifyRequest,
  zipPath: string,
  maxZipBytes: number,
): Promise<ThemeUpgradeFields> {
  if (!request.isMultipart()) {
    throw badRequest('Send the theme as multipart/form-data with target_key, source_key and the file theme.');
  }
  const fields: Record<string, string> = {};
  let sawFile = false;
  try {
    for await (const part of request.parts()) {
      if (part.type === 'file') {
        if (part.fieldname !== 'theme') throw badRequest('Send the theme zip in the field "theme".');
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
  if (!sawFile) throw badRequest('Attach your theme zip in the field "theme".', 'theme_missing');
  const parsed = FieldsSchema.safeParse(fields);
  if (!parsed.success) throw badRequest(parsed.error.issues[0]?.message ?? 'Invalid upgrade fields');
  return parsed.data;
}

function tooLarge(maxZipBytes: number): AppError {
  const mb = Math.round((maxZipBytes / (1024 * 1024)) * 10) / 10;
  return new AppError(413, `The theme zip is too large (max ${mb} MB).`, 'zip_too_large');
}

function toUploadError(error: unknown, maxZipBytes: number): unknown {
  if (error instanceof AppError) return error;
  const code = (error as { code?: unknown } | null)?.code;
  if (code === 'FST_REQ_FILE_TOO_LARGE') return tooLarge(maxZipBytes);
  if (code === 'FST_FILES_LIMIT') return badRequest('Upload one theme zip.');
  if (typeof code === 'string' && code.startsWith('FST_')) {
    const status = (error as { statusCode?: number }).statusCode;
    const message = error instanceof Error ? error.message : 'Invalid upload';
    return status === 413 ? new AppError(413, message, 'zip_too_large') : badRequest(message);
  }
  if (error instanceof Error && 'syscall' in error) return error;
  return badRequest('The upload was cut off or is not valid multipart/form-data.');
}
