/**
 * Short-lived signed links to a release zip: `<publicUrl>/api/releases/<id>/download?key=&user=&expires=&sig=`, where
 * sig is the base64url HMAC-SHA256 of `<releaseId>.<keyId>.<userId>.<expires>`. `user` is the key's owner when the link
 * was made: the link works only while that user still owns the key. The signature is the credential of the GET route;
 * the POST download routes accept nothing but such links (they never fetch a URL).
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

export const DOWNLOAD_LINK_TTL_MS = 15 * 60 * 1000;
/** Largest int4: ids beyond it cannot exist (and would make PostgreSQL fail, not answer). */
const MAX_ID = 2_147_483_647;
const ID = /^\d{1,10}$/;
const EXPIRES = /^\d{1,13}$/;
const SIGNATURE = /^[A-Za-z0-9_-]{43}$/;
const QUERY_NAMES = ['expires', 'key', 'sig', 'user'];

export interface DownloadLinkClaims {
  releaseId: number;
  keyId: number;
  /** The user who owned the key when the link was made. */
  userId: number;
  /** Unix time in milliseconds. */
  expires: number;
}

/** Why a link was refused: not one of ours at all, or ours but expired or wrongly signed. */
export type LinkProblem = 'not_a_release_link' | 'expired';

export type LinkCheck = { ok: true; claims: DownloadLinkClaims } | { ok: false; problem: LinkProblem };

/** The GET route's path parameter and query, as strings. */
export interface SignedLinkQuery {
  id: string;
  key: string;
  user: string;
  expires: string;
  sig: string;
}

export interface DownloadLinkOptions {
  secret: Buffer;
  /** This server's public address (a function: the port is known once the server listens). */
  publicUrl: () => string;
  now?: () => number;
}

export function createDownloadLinks({ secret, publicUrl, now = () => Date.now() }: DownloadLinkOptions) {
  const sign = (claims: DownloadLinkClaims) =>
    createHmac('sha256', secret)
      .update(`${claims.releaseId}.${claims.keyId}.${claims.userId}.${claims.expires}`)
      .digest('base64url');

  /** Validates signature and expiry of claims taken from a link. */
  function checkClaims(claims: DownloadLinkClaims, signature: string): LinkCheck {
    if (!isId(claims.releaseId) || !isId(claims.keyId) || !isId(claims.userId) || !SIGNATURE.test(signature)) {
      return { ok: false, problem: 'expired' };
    }
    const expected = Buffer.from(sign(claims));
    const given = Buffer.from(signature);
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) return { ok: false, problem: 'expired' };
    const current = now();
    if (claims.expires <= current || claims.expires > current + DOWNLOAD_LINK_TTL_MS + 60_000) {
      return { ok: false, problem: 'expired' };
    }
    return { ok: true, claims };
  }

  function basePath(): string {
    return new URL(publicUrl()).pathname.replace(/\/+$/, '');
  }

  /** The GET route's path and query (already shaped by the contract), or the parts of a parsed link. */
  function checkQuery(input: SignedLinkQuery): LinkCheck {
    if (!ID.test(input.id) || !ID.test(input.key) || !ID.test(input.user) || !EXPIRES.test(input.expires)) {
      return { ok: false, problem: 'not_a_release_link' };
    }
    return checkClaims(
      {
        releaseId: Number(input.id),
        keyId: Number(input.key),
        userId: Number(input.user),
        expires: Number(input.expires),
      },
      input.sig,
    );
  }

  /** The public URL's host, and the host this request reached the server under (127.0.0.1 vs localhost). */
  function allowedHosts(protocol: string, requestHost: string | undefined): string[] {
    const hosts = [new URL(publicUrl()).host];
    if (requestHost) {
      try {
        const asUrl = new URL(`${protocol}//${requestHost}`);
        if (asUrl.username === '' && asUrl.password === '' && asUrl.pathname === '/' && asUrl.search === '') {
          hosts.push(asUrl.host);
        }
      } catch {
        // A Host header that is not a host adds nothing.
      }
    }
    return hosts;
  }

  return {
    /** A new absolute link to a release for a key and its owner, valid for 15 minutes. */
    create(releaseId: number, keyId: number, userId: number): string {
      const claims = { releaseId, keyId, userId, expires: now() + DOWNLOAD_LINK_TTL_MS };
      const url = new URL(publicUrl());
      url.pathname = `${basePath()}/api/releases/${releaseId}/download`;
      url.search = new URLSearchParams({
        key: String(keyId),
        user: String(userId),
        expires: String(claims.expires),
        sig: sign(claims),
      }).toString();
      url.hash = '';
      return url.href;
    },

    checkQuery,

    /**
     * A link sent to a POST download route. Only this server's own release links pass: http(s), no user info, the
     * public URL's host or the Host the request came in on, the exact release path and the three signed parameters,
     * written exactly as this server writes them (so no encoded, dotted or padded variant slips through).
     */
    parse(input: string, requestHost: string | undefined): LinkCheck {
      const refused = { ok: false, problem: 'not_a_release_link' } as const;
      let url: URL;
      try {
        url = new URL(input);
      } catch {
        return refused;
      }
      if (url.href !== input) return refused;
      if (url.protocol !== 'http:' && url.protocol !== 'https:') return refused;
      if (url.username !== '' || url.password !== '' || url.hash !== '') return refused;
      if (!allowedHosts(url.protocol, requestHost).includes(url.host)) return refused;
      const match = /^(.*)\/api\/releases\/(\d{1,10})\/download$/.exec(url.pathname);
      if (!match || match[1] !== basePath()) return refused;
      const names = [...url.searchParams.keys()].sort();
      if (names.join('&') !== QUERY_NAMES.join('&')) return refused;
      const param = (name: string) => url.searchParams.get(name) ?? '';
      return checkQuery({
        id: match[2] ?? '',
        key: param('key'),
        user: param('user'),
        expires: param('expires'),
        sig: param('sig'),
      });
    },
  };
}
export type DownloadLinks = ReturnType<typeof createDownloadLinks>;

function isId(value: number): boolean {
  return Number.isSafeInteger(value) && value >= 1 && value <= MAX_ID;
}
