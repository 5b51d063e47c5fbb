import type { ThemeTokenClaims } from '@keyport/shared/contracts/connect';
import { validateConnectionDomains } from '@keyport/shared/domain/website-domain';
import type { Tier } from '@keyport/shared/domain/tiers';
import type { Db, DbOrTx } from '../../db/client';
import { badRequest } from '../../http/errors';
import type { ConnectionDomains, KeysService, OwnedKeyRecord } from '../keys/keys.service';
import * as repo from './connect.repo';
import type { ThemeTokenSigner } from './theme-token';

export interface ConnectServiceDeps {
  db: Db;
  keys: Pick<KeysService, 'saveConnection' | 'storeToken' | 'requireOwnedKey' | 'findKeyById' | 'moveConnection'>;
  signer: ThemeTokenSigner;
  now?: () => Date;
}

/** A store connection move prepared before a theme upgrade runs; committed after it succeeded. */
export interface PreparedConnectionMove {
  sourceKeyId: number;
  targetKeyId: number;
  expectedTargetVersion: number;
  domains: ConnectionDomains;
  issuedAt: Date;
  /** The target key's token after the move: the one written into the upgraded theme. */
  token: string;
}

/** What a token must match of its key to count: the key's current token version and tier. */
export interface TokenSubject {
  tokenVersion: number;
  tier: ThemeTokenClaims['tier'];
}

/**
 * The current-token rule, once: a newer token, or a disconnect, makes every older token stale. The tier is not part of
 * it: an upgrade never breaks a live store (the token pasted in the theme keeps working; the new tier reaches the
 * theme with the next token or download — ADR 014).
 */
export function isCurrentToken(
  claims: Pick<ThemeTokenClaims, 'ver'>,
  key: Pick<TokenSubject, 'tokenVersion'>,
): boolean {
  return key.tokenVersion === claims.ver;
}

/**
 * Connecting a key to a store: saving its domains and issuing the theme auth token (§7 PUT /keys/), and the user's
 * store list (`user_stores`, owned here). Keys are reached through the keys service.
 */
export function createConnectService({ db, keys, signer, now = () => new Date() }: ConnectServiceDeps) {
  async function tokenForTier(token: string, claims: ThemeTokenClaims, tier: Tier): Promise<string> {
    if (claims.tier === tier) return token;
    // A token from before ADR 030 names the license key itself: its re-signed form carries the opaque id instead.
    const key = await keys.findKeyById(claims.kid);
    const signed = await signer.sign(
      { sub: key?.publicId ?? claims.sub, kid: claims.kid, tier, domains: claims.domains, ver: claims.ver },
      now(),
    );
    await keys.storeToken(claims.kid, claims.ver, signed);
    return signed;
  }

  return {
    async saveDomains(
      userId: number,
      input: { key: string; main_url?: string | null; myshopify?: string | null; secondary_url?: string | null },
    ): Promise<{ error: null; tokentheme: string }> {
      // The server applies the same rules as the browser and never trusts its validation.
      const domains = validateConnectionDomains(input);
      if (!domains.ok) throw badRequest(domains.error, 'invalid_domain');
      const issuedAt = now();
      // Signing is local CPU work: no network call runs inside the transaction.
      const token = await db.transaction(async (tx) => {
        const key = await keys.saveConnection(
          userId,
          input.key,
          { mainUrl: domains.main_url, myshopify: domains.myshopify, secondaryUrl: domains.secondary_url },
          issuedAt,
          tx,
        );
        const signed = await signer.sign(
          { sub: key.publicId, kid: key.id, tier: key.tier, domains: domains.whitelist, ver: key.tokenVersion },
          issuedAt,
        );
        await keys.storeToken(key.id, key.tokenVersion, signed, tx);
        if (domains.myshopify) await repo.rememberStore(tx, userId, domains.myshopify);
        return signed;
      });
      return { error: null, tokentheme: token };
    },

    async getToken(userId: number, apiKey: string): Promise<{ tokentheme: string | null }> {
      const key = await keys.requireOwnedKey(userId, apiKey);
      return { tokentheme: key.authToken };
    },

    listUserStores: (userId: number) => repo.listUserStores(db, userId),

    /** A token's claims when it is signed by us and still the key's current token; null otherwise. */
    async verify(token: string): Promise<ThemeTokenClaims | null> {
      const claims = await signer.verifySignature(token);
      if (!claims) return null;
      const key = await keys.findKeyById(claims.kid);
      return key && isCurrentToken(claims, key) ? claims : null;
    },

    /**
     * The token to write into a theme: `claims`' own token while it names the key's tier, else the same token (same
     * version and domains) re-signed for the key's tier now, stored as the key's token — how an upgrade reaches a
     * theme without breaking the token pasted in a live store (ADR 014).
     */
    tokenForTier,

    /**
     * Theme upgrade (issue 10): the token to write into a theme built for the caller's key `target` now — its current
     * token, re-signed for its tier when it was upgraded since; null when it has none (no store connected yet).
     */
    async currentTokenFor(target: OwnedKeyRecord): Promise<string | null> {
      if (!target.authToken) return null;
      const claims = await signer.verifySignature(target.authToken);
      if (!claims || !isCurrentToken(claims, target)) return null;
      return tokenForTier(target.authToken, claims, target.tier);
    },

    /**
     * Theme upgrade with a connection move: the token `target` will have once `source`'s store is moved to it (signed
     * for its next token version and the source's domains), to write into the theme before the move is committed.
     * Null when the source has no store connected.
     */
    async prepareConnectionMove(
      source: OwnedKeyRecord,
      target: OwnedKeyRecord,
    ): Promise<PreparedConnectionMove | null> {
      const domains = validateConnectionDomains({
        main_url: source.key.main_url,
        myshopify: source.key.myshopify,
        secondary_url: source.key.secondary_url === 'None' ? null : source.key.secondary_url,
      });
      if (!domains.ok) return null;
      const issuedAt = now();
      const version = target.tokenVersion + 1;
      const token = await signer.sign(
        { sub: target.publicId, kid: target.id, tier: target.tier, domains: domains.whitelist, ver: version },
        issuedAt,
      );
      return {
        sourceKeyId: source.id,
        targetKeyId: target.id,
        expectedTargetVersion: target.tokenVersion,
        domains: { mainUrl: domains.main_url, myshopify: domains.myshopify, secondaryUrl: domains.secondary_url },
        issuedAt,
        token,
      };
    },

    /** Commits a prepared move inside the caller's short transaction (409 when the target key changed meanwhile). */
    async commitConnectionMove(userId: number, move: PreparedConnectionMove, tx: DbOrTx): Promise<void> {
      const { tokenVersion } = await keys.moveConnection(
        {
          ownerId: userId,
          fromKeyId: move.sourceKeyId,
          toKeyId: move.targetKeyId,
          expectedTargetVersion: move.expectedTargetVersion,
          domains: move.domains,
          issuedAt: move.issuedAt,
        },
        tx,
      );
      await keys.storeToken(move.targetKeyId, tokenVersion, move.token, tx);
      if (move.domains.myshopify) await repo.rememberStore(tx, userId, move.domains.myshopify);
    },

    /** Signature and shape only; the caller checks `isCurrent` against the key it loads anyway. */
    verifySignature: (token: string) => signer.verifySignature(token),

    isCurrent: isCurrentToken,

    jwks: () => signer.jwks(),

    /** Signs exactly these bytes with the token key (the validation API's answers, ADR 031). */
    signBytes: (bytes: Buffer) => signer.signBytes(bytes),

    /** The JWKS `kid` of that key. */
    signingKid: signer.kid,
  };
}
export type ConnectService = ReturnType<typeof createConnectService>;
