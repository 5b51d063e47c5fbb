/** Reading `POST /theme-file-updates` (multipart/form-data: target_key, source_key, move_connection, consent_store, theme). */
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { badRequest } from '../../http/errors';
import { receiveZipUpload } from '../../http/zip-upload';

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
  consent_store: z.string().trim().max(255, 'consent_store is too long').optional(),
});
export type ThemeFileUpdateFields = z.infer<typeof FieldsSchema>;

/**
 * Streams the one file part (`theme`) to `zipPath` (the caller removes it in every case) and returns the validated
 * fields. Client mistakes are 400 (413 over the limit), never 500.
 */
export async function receiveThemeFileUpdateUpload(
  request: FastifyRequest,
  zipPath: string,
  maxZipBytes: number,
): Promise<ThemeFileUpdateFields> {
  const fields = await receiveZipUpload(request, zipPath, maxZipBytes, 'theme', {
    notMultipart: 'Send the theme as multipart/form-data with target_key, source_key and the file theme.',
    wrongField: 'Send the theme zip in the field "theme".',
    missingFile: 'Attach your theme zip in the field "theme".',
    missingFileCode: 'theme_missing',
    oneFile: 'Upload one theme zip.',
  });
  const parsed = FieldsSchema.safeParse(fields);
  if (!parsed.success) throw badRequest(parsed.error.issues[0]?.message ?? 'Invalid upgrade fields');
  return parsed.data;
}
