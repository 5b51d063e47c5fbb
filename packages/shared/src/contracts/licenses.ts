import { z } from 'zod/mini';
import { defineContract } from './define';

/**
 * Issue 13: license validation for the theme (public, CORS open, no cookies), license health on each key card, and
 * the evidence of pirated copies staff review. Written first so server, web and theme snippet agree.
 */

/**
 * One code per outcome of a validation, in the order the server checks them (after VALID). A released key is told
 * before a superseded token: releasing a key also bumps its token version, and "released" is the truer answer.
 */
export const LICENSE_CODES = [
  'VALID',
  'MALFORMED',
  'KEY_RELEASED',
  'TOKEN_SUPERSEDED',
  'EDITION_MISMATCH',
  'DOMAIN_MISMATCH',
] as const;
export const LicenseCodeSchema = z.enum(LICENSE_CODES);
export type LicenseCode = z.infer<typeof LicenseCodeSchema>;

/**
 * The response header carrying the answer's Ed25519 signature: `kid=<JWKS kid>,sig=<base64url signature>`, computed over
 * the exact bytes of the response body. A theme verifies it with the key of that kid in `/.well-known/jwks.json`.
 */
export const LICENSE_SIGNATURE_HEADER = 'x-keyport-signature';

const shortText = (max: number) => z.string().check(z.maxLength(max, `At most ${max} characters`));

export const LicenseValidationSchema = z.object({
  valid: z.boolean(),
  code: LicenseCodeSchema,
  /** The key's tier when the token was readable and its key still exists; null otherwise. */
  tier: z.nullable(z.enum(['LITE', 'REGULAR', 'PRO'])),
  /** Until when a theme may trust this (cached) answer: ISO 8601. */
  expires_at: z.string(),
  /** The normalised domain the answer is for (a cached answer is only good for this domain). */
  domain: z.string(),
});
export type LicenseValidation = z.infer<typeof LicenseValidationSchema>;

/**
 * Validate a theme auth token for the storefront's domain. A well-formed request always answers 200 with a code
 * (a forged, altered or unreadable token is `MALFORMED`); only a body that is not this shape is a 400.
 */
export const validateLicense = defineContract({
  operationId: 'validateLicense',
  method: 'POST',
  path: '/api/licenses/validate',
  summary: 'Validate a theme license token for a storefront domain (public; signed answer)',
  tags: ['licenses'],
  access: 'public',
  body: z.object({
    token: shortText(4096),
    domain: shortText(255),
    theme_version: shortText(32),
    theme_edition: shortText(16),
  }),
  response: LicenseValidationSchema,
});

/** What the portal has seen of a key's theme in the wild (from validation check-ins). */
export const KeyHealthSchema = z.object({
  key_id: z.int(),
  /** The last check-in from a domain the key's token covers; null when the theme has never called. */
  last_checkin_at: z.nullable(z.string()),
  domain: z.nullable(z.string()),
  theme_version: z.nullable(z.string()),
  theme_edition: z.nullable(z.enum(['LITE', 'REGULAR', 'PRO'])),
  /** The version customers of this key's edition download now (the current release). */
  latest_version: z.nullable(z.string()),
  /** The store runs an older version than `latest_version`. */
  update_available: z.boolean(),
  /** The key's token was seen on a domain it does not cover (most recent such domain). */
  mismatch: z.nullable(z.object({ domain: z.string(), last_seen_at: z.string(), checkins: z.int() })),
});
export type KeyHealth = z.infer<typeof KeyHealthSchema>;

/** License health of each of the caller's keys (GET /keys/ stays exactly §3's shape). */
export const getKeysHealth = defineContract({
  operationId: 'getKeysHealth',
  method: 'GET',
  path: '/keys/health',
  summary: "License health of the signed-in user's keys (last check-in, version, mismatches)",
  tags: ['keys'],
  access: 'user',
  response: z.array(KeyHealthSchema),
});

/** A domain seen running a token that no key of ours covers: evidence of a pirated copy. */
export const LicenseSightingSchema = z.object({
  domain: z.string(),
  checkins: z.int(),
  first_seen_at: z.string(),
  last_seen_at: z.string(),
  /** Theme versions and editions seen on that domain. */
  versions: z.array(z.string()),
  /** The keys whose tokens were seen there (their owners' stores are elsewhere). */
  keys: z.array(z.object({ id: z.int(), owner_email: z.nullable(z.string()) })),
  /** Store reports that name this domain, by status. */
  reports: z.object({ pending: z.int(), approved: z.int(), rejected: z.int() }),
});
export type LicenseSighting = z.infer<typeof LicenseSightingSchema>;

export const staffListSightings = defineContract({
  operationId: 'staffListSightings',
  method: 'GET',
  path: '/staff/license-sightings',
  summary: 'Domains seen running a token no key of ours covers, most recent first (staff only)',
  tags: ['staff'],
  access: 'staff',
  query: z.object({
    q: z.optional(shortText(255)),
    cursor: z.optional(z.string().check(z.maxLength(200))),
    limit: z.optional(z.coerce.number().check(z.int(), z.minimum(1), z.maximum(100))),
  }),
  response: z.object({ sightings: z.array(LicenseSightingSchema), next_cursor: z.nullable(z.string()) }),
});
