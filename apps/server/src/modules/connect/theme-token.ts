import { createPrivateKey, sign as signWithKey, type JsonWebKey as NodeJwk } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import {
  calculateJwkThumbprint,
  exportJWK,
  generateKeyPair,
  importJWK,
  jwtVerify,
  SignJWT,
  type CryptoKey,
  type JWK,
  type KeyObject,
} from 'jose';
import { ThemeTokenClaimsSchema, type ThemeTokenClaims } from '@keyport/shared/contracts/connect';

export const TOKEN_ISSUER = 'keyport';
/** How far a token's `nbf` may be ahead of this machine's clock (another portal process's clock may run ahead). */
export const TOKEN_CLOCK_TOLERANCE_SECONDS = 60;
const KEY_FILE = 'token-signing-key.json';

export interface ThemeTokenSigner {
  /** A token whose `iat` and `nbf` are `issuedAt` (ADR 030: no `exp`; the online validation is what expires). */
  sign(claims: Omit<ThemeTokenClaims, 'iss' | 'iat' | 'nbf'>, issuedAt: Date): Promise<string>;
  /**
   * The claims when the signature and shape are valid and `nbf`, when present, has come (within the clock
   * tolerance). Whether the version is current is the caller's check.
   */
  verifySignature(token: string): Promise<ThemeTokenClaims | null>;
  /** The Ed25519 signature of exactly these bytes with the token key (the validation API's signed answers). */
  signBytes(bytes: Buffer): Buffer;
  /** The JWKS `kid` of the key `signBytes` and `sign` use. */
  readonly kid: string;
  jwks(): { keys: (JWK & { kid: string; alg: string; use: string; kty: string; crv: string; x: string })[] };
}

/**
 * Ed25519 (EdDSA) signing of theme auth tokens. The private key comes from TOKEN_SIGNING_KEY (a private JWK) or is
 * generated once and kept in the data directory (mode 0600); its public half is served as a JWKS so a theme can
 * verify a token offline.
 */
export async function createThemeTokenSigner(options: {
  privateJwk: string | null;
  dataDir: string;
}): Promise<ThemeTokenSigner> {
  const jwk = options.privateJwk ? parsePrivateJwk(options.privateJwk) : await loadOrCreateKey(options.dataDir);
  const privateKey = (await importJWK(jwk, 'EdDSA')) as CryptoKey | KeyObject;
  const publicJwk = { kty: 'OKP', crv: 'Ed25519', x: jwk.x! };
  const kid = await calculateJwkThumbprint(publicJwk);
  const publicKey = (await importJWK(publicJwk, 'EdDSA')) as CryptoKey | KeyObject;
  // node:crypto's own handle on the same private key: signing a response body is one synchronous call.
  const nodePrivateKey = createPrivateKey({ key: { ...jwk } as NodeJwk, format: 'jwk' });

  return {
    async sign(claims, issuedAt) {
      return new SignJWT({ kid: claims.kid, tier: claims.tier, domains: claims.domains, ver: claims.ver })
        .setProtectedHeader({ alg: 'EdDSA', typ: 'JWT', kid })
        .setIssuer(TOKEN_ISSUER)
        .setSubject(claims.sub)
        .setIssuedAt(Math.floor(issuedAt.getTime() / 1000))
        .setNotBefore(Math.floor(issuedAt.getTime() / 1000))
        .sign(privateKey);
    },
    async verifySignature(token) {
      try {
        // jose checks `nbf` when the token has one (tokens issued before ADR 030 have none and stay valid).
        const { payload } = await jwtVerify(token, publicKey, {
          algorithms: ['EdDSA'],
          issuer: TOKEN_ISSUER,
          clockTolerance: TOKEN_CLOCK_TOLERANCE_SECONDS,
        });
        const parsed = ThemeTokenClaimsSchema.safeParse(payload);
        return parsed.success ? parsed.data : null;
      } catch {
        return null;
      }
    },
    signBytes: (bytes) => signWithKey(null, bytes, nodePrivateKey),
    kid,
    jwks: () => ({ keys: [{ ...publicJwk, kid, alg: 'EdDSA', use: 'sig' }] }),
  };
}

function parsePrivateJwk(text: string): JWK {
  const jwk = JSON.parse(text) as JWK;
  if (jwk.kty !== 'OKP' || jwk.crv !== 'Ed25519' || !jwk.d || !jwk.x) {
    throw new Error('TOKEN_SIGNING_KEY must be an Ed25519 private JWK ({"kty":"OKP","crv":"Ed25519","d":…,"x":…})');
  }
  return jwk;
}

async function loadOrCreateKey(dataDir: string): Promise<JWK> {
  const file = path.join(dataDir, KEY_FILE);
  if (fs.existsSync(file)) return parsePrivateJwk(fs.readFileSync(file, 'utf8'));
  const { privateKey } = await generateKeyPair('EdDSA', { crv: 'Ed25519', extractable: true });
  const jwk = await exportJWK(privateKey);
  fs.mkdirSync(dataDir, { recursive: true });
  try {
    fs.writeFileSync(file, JSON.stringify(jwk), { flag: 'wx', mode: 0o600 });
    return jwk;
  } catch (error) {
    // Another start won the race: use its key.
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return parsePrivateJwk(fs.readFileSync(file, 'utf8'));
    throw error;
  }
}
