/**
 * Reading `POST /staff/releases` (multipart/form-data: edition, version, notes, reason, file) into fields and a temp
 * file.
 */
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { MigrationMapSchema, type MigrationMap } from '@keyport/shared/contracts/migration-map';
import { StaffReasonSchema } from '@keyport/shared/contracts/staff';
import { isTier, type Tier } from '@keyport/shared/domain/tiers';
import { badRequest } from '../../http/errors';
import { parseThemeJson } from '../../lib/theme-update/json-text';
import { receiveZipUpload } from '../../http/zip-upload';
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
  // The one reason rule of every staff write (contracts/staff.ts).
  reason: z.string({ error: 'reason is required' }).transform((value, context) => {
    const parsed = StaffReasonSchema.safeParse(value);
    if (!parsed.success) {
      context.addIssue({ code: 'custom', message: parsed.error.issues[0]?.message ?? 'Invalid reason' });
      return z.NEVER;
    }
    return parsed.data;
  }),
});
export type ReleaseFields = z.infer<typeof ReleaseFieldsSchema> & { migrationMap: MigrationMap | null };

export const INVALID_MIGRATION_MAP = 'invalid_migration_map';

/**
 * Streams the request's one file part to `zipPath` (created; the caller removes it in every case) and returns the
 * validated fields. Client mistakes become 400 (413 when the file is over the limit), never 500.
 */
export async function receiveReleaseUpload(
  request: FastifyRequest,
  zipPath: string,
  maxZipBytes: number,
): Promise<ReleaseFields> {
  const fields = await receiveZipUpload(request, zipPath, maxZipBytes, 'file', {
    notMultipart: 'Send the release as multipart/form-data with the fields edition, version, notes, reason and file.',
    wrongField: 'Send the theme zip in the field "file".',
    missingFile: 'Attach the theme zip in the field "file".',
    oneFile: 'Upload one zip file per release.',
  });
  const parsed = ReleaseFieldsSchema.safeParse(fields);
  if (!parsed.success) throw badRequest(parsed.error.issues[0]?.message ?? 'Invalid release fields');
  return { ...parsed.data, migrationMap: parseMigrationMap(fields.migration_map) };
}

/**
 * The `migration_map` field: absent or blank → none; else JSON (comments allowed) of the map's shape, or 400
 * `invalid_migration_map` naming the problem. Its names are checked against the release's files later.
 */
export function parseMigrationMap(text: string | undefined): MigrationMap | null {
  if (text === undefined || text.trim() === '') return null;
  let value: unknown;
  try {
    value = parseThemeJson(text, 'The migration map');
  } catch (error) {
    throw badRequest(
      error instanceof Error ? error.message : 'The migration map is not valid JSON',
      INVALID_MIGRATION_MAP,
    );
  }
  const parsed = MigrationMapSchema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue && issue.path.length > 0 ? ` (at ${issue.path.join('.')})` : '';
    throw badRequest(
      `The migration map is not valid: ${issue?.message ?? 'unexpected shape'}${where}.`,
      INVALID_MIGRATION_MAP,
    );
  }
  return parsed.data;
}
