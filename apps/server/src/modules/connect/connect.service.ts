import type { ThemeTokenClaims } from '@keyport/shared/contracts/connect';
import { validateConnectionDomains } from '@keyport/shared/domain/website-domain';
import type { Db } from '../../db/client';
import { badRequest, notFound } from '../../http/errors';
import { normalizeLicenseKey } from '../keys/license-key-format';
import * as repo from './connect.repo';
import type { ThemeTokenSigner } from './theme-token';

export const KEY_NOT_FOUND = 'License key not found.';

/** Connecting a key to a store: saving its domains and issuing the theme auth token (§7 PUT /keys/). */
export function createConnectService({
  db,
  signer,
  now = () => new Date(),
}: {
  db: Db;
  signer: ThemeTokenSigner;
  now?: () => Date;
}) {
  return {
    async saveDomains(
      userId: number,
      input: { key: string; main_url?: string | null; myshopify?: string | null; secondary_url?: string | null },
    ): Promise<{ error: null; tokentheme: string }> {
      // The server applies the same rules as the browser and never trusts its validation.
      const domains = validateConnectionDomains(input);
      if (!domains.ok) throw badRequest(domains.error);
      const issuedAt = now();
      const token = await db.transaction(async (tx) => {
        const key = await repo.saveDomainsAndBumpVersion(
          tx,
          userId,
          normalizeLicenseKey(input.key),
          { mainUrl: domains.main_url, myshopify: domains.myshopify, secondaryUrl: domains.secondary_url },
          issuedAt,
        );
        if (!key) throw notFound(KEY_NOT_FOUND);
        const signed = await signer.sign(
          { sub: key.apiKey, kid: key.id, tier: key.tier, domains: domains.whitelist, ver: key.tokenVersion },
          issuedAt,
        );
        await repo.storeToken(tx, key.id, key.tokenVersion, signed);
        if (domains.myshopify) await repo.rememberStore(tx, userId, domains.myshopify);
        return signed;
      });
      return { error: null, tokentheme: token };
    },

    async getToken(userId: number, apiKey: string): Promise<{ tokentheme: string | null }> {
      const key = await repo.findOwnedKey(db, userId, normalizeLicenseKey(apiKey));
      if (!key) throw notFound(KEY_NOT_FOUND);
      return { tokentheme: key.authToken };
    },

    /** A token's claims when it is signed by us and still the key's current token; null otherwise. */
    async verify(token: string): Promise<ThemeTokenClaims | null> {
      const claims = await signer.verifySignature(token);
      if (!claims) return null;
      const key = await repo.findKeyById(db, claims.kid);
      if (!key || key.tokenVersion !== claims.ver || key.tier !== claims.tier) return null;
      return claims;
    },

    /** Signature and shape only; the caller checks the version against the key it loads anyway. */
    verifySignature: (token: string) => signer.verifySignature(token),

    jwks: () => signer.jwks(),
  };
}
export type ConnectService = ReturnType<typeof createConnectService>;
