import { z } from 'zod/mini';
import { defineContract } from './define';

const licenseKey = z
  .string()
  .check(z.trim(), z.minLength(1, 'key is required'), z.maxLength(100, 'This is not a license key'));
const domainField = z.string().check(z.maxLength(255, 'The domain is too long'));

/**
 * §7 PUT /keys/: save the key's domains and issue a new auth token. The domains are validated on the server with the
 * same rules as the browser (packages/shared/src/domain/website-domain.ts).
 */
export const saveDomains = defineContract({
  operationId: 'saveDomains',
  method: 'PUT',
  path: '/keys/',
  summary: "Save a key's domains and generate a new theme auth token",
  tags: ['keys'],
  access: 'user',
  body: z.object({
    key: licenseKey,
    main_url: z.optional(z.nullable(domainField)),
    myshopify: z.optional(z.nullable(domainField)),
    secondary_url: z.optional(z.nullable(domainField)),
  }),
  response: z.object({ error: z.null(), tokentheme: z.string() }),
});

/** The key's current token, to show again (masked preview, copy) to its owner. */
export const getKeyToken = defineContract({
  operationId: 'getKeyToken',
  method: 'POST',
  path: '/keys/token',
  summary: "The key's current theme auth token (owner only)",
  tags: ['keys'],
  access: 'user',
  body: z.object({ key: licenseKey }),
  response: z.object({ tokentheme: z.nullable(z.string()) }),
});

export const JwksSchema = z.object({
  keys: z.array(
    z.object({ kty: z.string(), crv: z.string(), x: z.string(), kid: z.string(), alg: z.string(), use: z.string() }),
  ),
});

export const getJwks = defineContract({
  operationId: 'getJwks',
  method: 'GET',
  path: '/.well-known/jwks.json',
  summary: 'Public keys that verify theme auth tokens offline',
  tags: ['keys'],
  access: 'public',
  response: JwksSchema,
});

/**
 * The claims of a theme auth token (an EdDSA-signed JWT). ADR 030: `sub` is the key's opaque public id (tokens issued
 * before issue 13 carry the license key itself there and no `nbf`; they stay valid until regenerated); `kid` is the
 * key's id; `iat` and `nbf` are when it was issued; no `exp` (the online validation is what expires).
 */
export const ThemeTokenClaimsSchema = z.object({
  iss: z.string(),
  sub: z.string(),
  kid: z.int(),
  tier: z.enum(['LITE', 'REGULAR', 'PRO']),
  domains: z.array(z.string()),
  ver: z.int(),
  iat: z.int(),
  nbf: z.optional(z.int()),
});
export type ThemeTokenClaims = z.infer<typeof ThemeTokenClaimsSchema>;
