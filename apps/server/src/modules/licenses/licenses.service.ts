import { LRUCache } from 'lru-cache';
import type { KeyHealth, LicenseCode, LicenseSighting, LicenseValidation } from '@keyport/shared/contracts/licenses';
import {
  normaliseStorefrontDomain,
  tokenCoversDomain,
  type StorefrontDomain,
} from '@keyport/shared/domain/license-domain';
import { licenseMatchHosts, normaliseReportedStore } from '@keyport/shared/domain/store-report';
import { isTier, tierFromFlags, tierRank, type Tier } from '@keyport/shared/domain/tiers';
import type { Db } from '../../db/client';
import { badRequest } from '../../http/errors';
import type { RateLimiter } from '../../http/rate-limit';
import type { CheckinBuffer } from '../../integrations/shared-state/port';
import type { AuthService } from '../auth/auth.service';
import type { ConnectService } from '../connect/connect.service';
import type { KeysService } from '../keys/keys.service';
import type { ServedReleases } from '../releases/served-releases.service';
import type { KeyStateCache } from './key-state-cache';
import * as repo from './licenses.repo';

/** How long a theme may trust a signed answer (ADR 031): a good license for hours, a bad one for minutes. */
export const ANSWER_TTL_SECONDS = { valid: 6 * 60 * 60, invalid: 15 * 60 } as const;
/**
 * Signed answers of the same content are reused for this long (ADR 031, "Performance"): `expires_at` is counted from
 * the start of the window, so every answer of one window is the same bytes and is signed once.
 */
export const ANSWER_REUSE_MS = 60_000;
/** Bounds of the per-process caches of verified tokens and of signed answers. */
export const VERIFIED_TOKENS_MAX = 10_000;
export const SIGNED_ANSWERS_MAX = 10_000;
/** Bound of the per-process cache of normalised storefront domains (a store sends the same domain on every view). */
export const STOREFRONT_DOMAINS_MAX = 10_000;

/** A signed answer: the exact body bytes, their signature header and how long they may be cached. */
export interface SignedAnswer {
  answer: LicenseValidation;
  body: string;
  signature: string;
  maxAgeSeconds: number;
  /** The Cache-Control header of the answer (made once with the answer). */
  cacheControl: string;
}

export interface LicensesServiceDeps {
  db: Db;
  keys: Pick<KeysService, 'listKeys' | 'connectionsTo' | 'findKeyStates'>;
  /** Which release each edition's customers get (built before this service; the releases service after it). */
  releases: Pick<ServedReleases, 'findServedRelease' | 'isOlderVersion'>;
  auth: Pick<AuthService, 'emailsOf'>;
  /** Token checks and the token key (the answers are signed with the key the JWKS serves). */
  tokens: Pick<ConnectService, 'verifySignature' | 'isCurrent' | 'signBytes' | 'signingKid'>;
  keyStates: Pick<KeyStateCache, 'get'>;
  checkins: CheckinBuffer;
  /** Validations per IP (generous: a storefront validates on page views its browser cache misses). */
  validateLimit: RateLimiter;
  now?: () => Date;
}

/**
 * A sighting as this module knows it: the store reports naming its domain are the credits module's, which reads this
 * module (report evidence), so GET /staff/license-sightings adds them in its route: one way (issue 21).
 */
export type UnreportedSighting = Omit<LicenseSighting, 'reports'>;

/** The report evidence of one domain: uncovered check-ins of a domain no key of ours covers. */
export interface SightingFacts {
  checkins: number;
  first_seen_at: string;
  last_seen_at: string;
}

/**
 * Issue 13: license validation for themes (ADR 031), key health for their owners and the evidence of pirated
 * copies for staff and store reports. Owns `license_checkins`; keys, releases and reports are reached through their
 * services.
 */
export function createLicensesService(deps: LicensesServiceDeps) {
  const { db, keys, releases, auth, tokens, keyStates, checkins, validateLimit } = deps;
  const now = deps.now ?? (() => new Date());
  // A token's signature cannot change: verified once per process, its claims are kept (bounded, least recently used
  // first out). Tokens that fail are not kept: a flood of invented tokens cannot push the real ones out.
  const verifiedTokens = new LRUCache<string, ThemeClaims>({ max: VERIFIED_TOKENS_MAX });
  // An answer's bytes depend only on (code, tier, domain, window): the same store's page views reuse one signature.
  // The code is decided afresh on every request from the current key state, so a regenerated or released key changes
  // the code, hence the cache entry, at once: nothing here needs invalidating.
  const signedAnswers = new LRUCache<string, SignedAnswer>({ max: SIGNED_ANSWERS_MAX });
  // Normalising a domain (IDNA, public suffixes) costs more than the rest of a cached validation: a pure function of
  // the text the theme sends, so its results are kept (bounded; null results too, as a flood of one bad domain).
  // (lru-cache holds no null: each result is kept in a box.)
  const storefronts = new LRUCache<string, { storefront: StorefrontDomain | null }>({ max: STOREFRONT_DOMAINS_MAX });
  const storefrontOf = (domain: string): StorefrontDomain | null => {
    const cached = storefronts.get(domain);
    if (cached) return cached.storefront;
    const storefront = normaliseStorefrontDomain(domain);
    storefronts.set(domain, { storefront });
    return storefront;
  };

  async function verifyToken(token: string): Promise<ThemeClaims | null> {
    const claims = await tokens.verifySignature(token);
    if (claims) verifiedTokens.set(token, claims);
    return claims;
  }

  /** The domains among `domains` (registrable domains) that a key of ours is connected to (the store-report rule). */
  async function licensedDomains(domains: string[]): Promise<Set<string>> {
    if (domains.length === 0) return new Set();
    const connections = await keys.connectionsTo([...new Set(domains.flatMap(licenseMatchHosts))]);
    const hosts = new Set(connections.flatMap((c) => c.hosts.flatMap((host) => normaliseReportedStore(host) ?? [])));
    return new Set(domains.filter((domain) => licenseMatchHosts(domain).some((host) => hosts.has(host))));
  }

  function sign(code: LicenseCode, tier: Tier | null, domain: string, at: Date): SignedAnswer {
    const windowStart = at.getTime() - (at.getTime() % ANSWER_REUSE_MS);
    const cacheKey = `${windowStart} ${code} ${tier ?? '-'} ${domain}`;
    const cached = signedAnswers.get(cacheKey);
    if (cached) return cached;
    const valid = code === 'VALID';
    const maxAgeSeconds = valid ? ANSWER_TTL_SECONDS.valid : ANSWER_TTL_SECONDS.invalid;
    const answer: LicenseValidation = {
      valid,
      code,
      tier,
      expires_at: new Date(windowStart + maxAgeSeconds * 1000).toISOString(),
      domain,
    };
    // Serialized once: these bytes are signed and sent as they are.
    const body = JSON.stringify(answer);
    const signature = `kid=${tokens.signingKid},sig=${tokens.signBytes(Buffer.from(body)).toString('base64url')}`;
    const signed = { answer, body, signature, maxAgeSeconds, cacheControl: `private, max-age=${maxAgeSeconds}` };
    signedAnswers.set(cacheKey, signed);
    return signed;
  }

  async function validate(
    input: { token: string; domain: string; theme_version: string; theme_edition: string },
    ip: string,
  ): Promise<SignedAnswer> {
    // ADR 047: a hit the limiter decides at once is not awaited (no microtask turn); a refusal is a rejected promise.
    const limited = validateLimit.hit(`license-validate:${ip}`);
    if (limited) await limited;
    const at = now();
    const storefront = storefrontOf(input.domain);
    const domain = storefront?.host ?? input.domain.trim().toLowerCase();
    // ADR 047: likewise a token seen before and a cached key state.
    const token = input.token.trim();
    const claims = verifiedTokens.get(token) ?? (await verifyToken(token));
    if (!claims) return sign('MALFORMED', null, domain, at);
    const state = keyStates.get(claims.kid);
    const key = state instanceof Promise ? await state : state;
    if (!key) return sign('KEY_RELEASED', null, domain, at);

    const edition = input.theme_edition.trim().toUpperCase();
    const covered = storefront !== null && tokenCoversDomain(claims.domains, storefront);
    if (storefront && isTier(edition)) {
      // Counted in memory (Redis gets the aggregates later): the flusher writes them, never this request. ADR 048: a
      // buffer that counted at once gives no promise, and none is awaited.
      const added = checkins.add({
        keyId: key.id,
        domain: storefront.site,
        version: input.theme_version.trim(),
        edition,
        covered,
        at,
      });
      if (added) await added;
    }
    if (key.ownerId === null) return sign('KEY_RELEASED', key.tier, domain, at);
    if (!tokens.isCurrent(claims, key)) return sign('TOKEN_SUPERSEDED', key.tier, domain, at);
    // A theme edition above the key's tier is a mismatch; a lower one is not (an upgraded key's store keeps working
    // until it installs the new edition, ADR 014).
    if (!isTier(edition) || tierRank(edition) > tierRank(key.tier))
      return sign('EDITION_MISMATCH', key.tier, domain, at);
    if (!covered) return sign('DOMAIN_MISMATCH', key.tier, domain, at);
    return sign('VALID', key.tier, domain, at);
  }

  async function keysHealth(userId: number): Promise<KeyHealth[]> {
    const owned = await keys.listKeys(userId);
    const ids = owned.map((key) => key.id);
    const [latest, uncovered] = await Promise.all([
      repo.latestCoveredCheckins(db, ids),
      repo.uncoveredCheckinsOfKeys(db, ids),
    ]);
    const served = new Map<Tier, Promise<string | null>>();
    const latestVersionOf = (edition: Tier) => {
      let version = served.get(edition);
      if (!version) {
        version = releases.findServedRelease(edition).then((release) => release?.version ?? null);
        served.set(edition, version);
      }
      return version;
    };
    return Promise.all(
      owned.map(async (key): Promise<KeyHealth> => {
        const seen = latest.find((row) => row.keyId === key.id) ?? null;
        const edition = seen?.edition ?? tierFromFlags(key);
        const latestVersion = await latestVersionOf(edition);
        const mismatch = uncovered
          .filter((row) => row.keyId === key.id && row.lastSeenAt !== null)
          .sort((a, b) => b.lastSeenAt!.getTime() - a.lastSeenAt!.getTime())[0];
        return {
          key_id: key.id,
          last_checkin_at: seen?.lastSeenAt.toISOString() ?? null,
          domain: seen?.domain ?? null,
          theme_version: seen?.version ?? null,
          theme_edition: seen?.edition ?? null,
          latest_version: latestVersion,
          update_available:
            seen !== null && latestVersion !== null && releases.isOlderVersion(seen.version, latestVersion),
          mismatch: mismatch
            ? { domain: mismatch.domain, last_seen_at: mismatch.lastSeenAt!.toISOString(), checkins: mismatch.checkins }
            : null,
        };
      }),
    );
  }

  async function listSightings(query: { q?: string; cursor?: string; limit?: number }) {
    const limit = query.limit ?? 50;
    let before = query.cursor === undefined ? null : decodeCursor(query.cursor);
    const prefix = query.q?.trim().toLowerCase() || null;
    const found: repo.UncoveredDomainRow[] = [];
    let more = true;
    // Candidates are uncovered domains; those a key of ours is connected to are not sightings (the store is
    // licensed: a token of another key was pasted there). A few rounds fill a page; a page may come short, with a
    // cursor, when most candidates were licensed.
    for (let round = 0; round < 5 && found.length < limit; round += 1) {
      const candidates = await repo.listUncoveredDomains(db, { before, prefix, limit });
      const licensed = await licensedDomains(candidates.map((row) => row.domain));
      let consumed = 0;
      for (const row of candidates) {
        consumed += 1;
        before = { lastSeenAt: row.lastSeenAt, domain: row.domain };
        if (!licensed.has(row.domain)) found.push(row);
        if (found.length === limit) break;
      }
      if (candidates.length < limit && consumed === candidates.length) {
        more = false;
        break;
      }
    }
    const domains = found.map((row) => row.domain);
    const details = await repo.uncoveredDetailsOf(db, domains);
    const keyIds = [...new Set(details.map((row) => row.keyId))];
    const states = await keys.findKeyStates(keyIds);
    const emails = await auth.emailsOf(states.flatMap((state) => (state.ownerId === null ? [] : [state.ownerId])));
    const ownerOf = new Map(states.map((state) => [state.id, state.ownerId]));
    const sightings: UnreportedSighting[] = found.map((row) => {
      const seen = details.filter((detail) => detail.domain === row.domain);
      return {
        domain: row.domain,
        checkins: row.checkins,
        first_seen_at: row.firstSeenAt.toISOString(),
        last_seen_at: row.lastSeenAt.toISOString(),
        versions: [...new Set(seen.map((detail) => `${detail.version} ${detail.edition}`))].sort(),
        keys: [...new Set(seen.map((detail) => detail.keyId))]
          .sort((a, b) => a - b)
          .map((id) => {
            const ownerId = ownerOf.get(id) ?? null;
            return { id, owner_email: ownerId === null ? null : (emails.get(ownerId) ?? null) };
          }),
      };
    });
    const nextCursor = more && before ? encodeCursor(before) : null;
    return { sightings, next_cursor: nextCursor };
  }

  return {
    validate,
    keysHealth,
    listSightings,

    /**
     * Covered check-ins of `edition` as a query (key, version, store, seen at): the releases module unions it with its
     * downloads to show which stores run which release (ADR 029). Built here because this module owns the table.
     */
    checkinEvidence: (edition: Tier) => repo.coveredCheckinEvidence(db, edition),

    /**
     * The evidence for store reports: each of `domains` (normalised as reports are) seen with a token that does not
     * cover it while no key of ours is connected to it.
     */
    async sightingsOf(domains: string[]): Promise<Map<string, SightingFacts>> {
      const unique = [...new Set(domains)];
      const [totals, licensed] = await Promise.all([repo.uncoveredTotalsOf(db, unique), licensedDomains(unique)]);
      return new Map(
        totals
          .filter((row) => !licensed.has(row.domain))
          .map((row) => [
            row.domain,
            {
              checkins: row.checkins,
              first_seen_at: row.firstSeenAt.toISOString(),
              last_seen_at: row.lastSeenAt.toISOString(),
            },
          ]),
      );
    },

    /**
     * The evidence a store report may be approved on without staff (ADR 037): the same sightings, counting only
     * check-ins of keys owned by someone other than the reporter (a key of theirs, or one without an owner, could
     * be the reporter's own token sent from made-up domains). Per domain: the totals and the keys behind them.
     */
    async reportEvidenceOf(
      domains: string[],
      reporterId: number,
    ): Promise<Map<string, SightingFacts & { key_ids: number[] }>> {
      const unique = [...new Set(domains)];
      const [rows, licensed] = await Promise.all([repo.uncoveredTotalsByKeyOf(db, unique), licensedDomains(unique)]);
      const states = await keys.findKeyStates([...new Set(rows.map((row) => row.keyId))]);
      const ownerOf = new Map(states.map((state) => [state.id, state.ownerId]));
      const evidence = new Map<string, SightingFacts & { key_ids: number[] }>();
      for (const row of rows) {
        const ownerId = ownerOf.get(row.keyId) ?? null;
        if (ownerId === null || ownerId === reporterId || licensed.has(row.domain)) continue;
        const seen = evidence.get(row.domain);
        const first = row.firstSeenAt.toISOString();
        const last = row.lastSeenAt.toISOString();
        evidence.set(row.domain, {
          checkins: (seen?.checkins ?? 0) + row.checkins,
          first_seen_at: seen && seen.first_seen_at < first ? seen.first_seen_at : first,
          last_seen_at: seen && seen.last_seen_at > last ? seen.last_seen_at : last,
          key_ids: [...(seen?.key_ids ?? []), row.keyId].sort((a, b) => a - b),
        });
      }
      return evidence;
    },

    /** Writes a drained batch of check-ins (the flusher's `write`). */
    writeCheckins: (batch: Parameters<typeof repo.upsertCheckins>[1]) => repo.upsertCheckins(db, batch),
  };
}
export type LicensesService = ReturnType<typeof createLicensesService>;
type ThemeClaims = NonNullable<Awaited<ReturnType<LicensesServiceDeps['tokens']['verifySignature']>>>;

function encodeCursor(position: { lastSeenAt: Date; domain: string }): string {
  return Buffer.from(JSON.stringify([position.lastSeenAt.toISOString(), position.domain])).toString('base64url');
}

function decodeCursor(cursor: string): { lastSeenAt: Date; domain: string } {
  try {
    const [at, domain] = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as unknown[];
    const lastSeenAt = new Date(String(at));
    if (typeof at === 'string' && typeof domain === 'string' && !Number.isNaN(lastSeenAt.getTime())) {
      return { lastSeenAt, domain };
    }
  } catch {
    // Falls through to the 400 below.
  }
  throw badRequest('This cursor is not valid.', 'invalid_cursor');
}
