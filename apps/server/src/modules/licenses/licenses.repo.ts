import { and, desc, eq, inArray, like, max, min, not, sql } from 'drizzle-orm';
import type { Tier } from '@keyport/shared/domain/tiers';
import type { DbOrTx } from '../../db/client';
import { licenseCheckins } from '../../db/schema';
import type { AggregatedCheckin } from '../../integrations/shared-state/port';

/**
 * Adds a batch of aggregated check-ins in one statement: a new (key, domain, version, edition, covered) row, or the
 * existing one's count plus the batch's, keeping the earliest first and the latest last time. The batch must hold
 * each aggregate once (the flusher merges duplicates first).
 */
export async function upsertCheckins(db: DbOrTx, batch: AggregatedCheckin[]): Promise<void> {
  if (batch.length === 0) return;
  await db
    .insert(licenseCheckins)
    .values(
      batch.map((checkin) => ({
        keyId: checkin.keyId,
        domain: checkin.domain,
        version: checkin.version,
        edition: checkin.edition,
        covered: checkin.covered,
        count: checkin.count,
        firstSeenAt: checkin.firstAt,
        lastSeenAt: checkin.lastAt,
      })),
    )
    .onConflictDoUpdate({
      target: [
        licenseCheckins.keyId,
        licenseCheckins.domain,
        licenseCheckins.version,
        licenseCheckins.edition,
        licenseCheckins.covered,
      ],
      set: {
        count: sql`${licenseCheckins.count} + excluded.count`,
        firstSeenAt: sql`least(${licenseCheckins.firstSeenAt}, excluded.first_seen_at)`,
        lastSeenAt: sql`greatest(${licenseCheckins.lastSeenAt}, excluded.last_seen_at)`,
      },
    });
}

/** Each key's most recent check-in from a domain its token covers. */
export function latestCoveredCheckins(db: DbOrTx, keyIds: number[]) {
  if (keyIds.length === 0) return Promise.resolve([]);
  return db
    .selectDistinctOn([licenseCheckins.keyId], {
      keyId: licenseCheckins.keyId,
      domain: licenseCheckins.domain,
      version: licenseCheckins.version,
      edition: licenseCheckins.edition,
      lastSeenAt: licenseCheckins.lastSeenAt,
    })
    .from(licenseCheckins)
    .where(and(inArray(licenseCheckins.keyId, keyIds), eq(licenseCheckins.covered, true)))
    .orderBy(licenseCheckins.keyId, desc(licenseCheckins.lastSeenAt), desc(licenseCheckins.id));
}

const checkinTotal = sql<number>`sum(${licenseCheckins.count})`.mapWith(Number);

/** Per key and uncovered domain: the check-ins counted and when last seen. */
export function uncoveredCheckinsOfKeys(db: DbOrTx, keyIds: number[]) {
  if (keyIds.length === 0) return Promise.resolve([]);
  return db
    .select({
      keyId: licenseCheckins.keyId,
      domain: licenseCheckins.domain,
      checkins: checkinTotal,
      lastSeenAt: max(licenseCheckins.lastSeenAt),
    })
    .from(licenseCheckins)
    .where(and(inArray(licenseCheckins.keyId, keyIds), not(licenseCheckins.covered)))
    .groupBy(licenseCheckins.keyId, licenseCheckins.domain);
}

export interface UncoveredDomainRow {
  domain: string;
  checkins: number;
  firstSeenAt: Date;
  lastSeenAt: Date;
}

/**
 * Domains seen with a token that does not cover them, most recently seen first (then by domain, descending), after
 * the `before` position; optionally only domains starting with `prefix`.
 */
export async function listUncoveredDomains(
  db: DbOrTx,
  query: { before: { lastSeenAt: Date; domain: string } | null; prefix: string | null; limit: number },
): Promise<UncoveredDomainRow[]> {
  const lastSeen = max(licenseCheckins.lastSeenAt);
  const rows = await db
    .select({
      domain: licenseCheckins.domain,
      checkins: checkinTotal,
      firstSeenAt: min(licenseCheckins.firstSeenAt),
      lastSeenAt: lastSeen,
    })
    .from(licenseCheckins)
    .where(
      and(
        not(licenseCheckins.covered),
        query.prefix === null ? undefined : like(licenseCheckins.domain, likePrefix(query.prefix)),
      ),
    )
    .groupBy(licenseCheckins.domain)
    .having(
      query.before === null
        ? undefined
        : sql`(${lastSeen}, ${licenseCheckins.domain}) < (${query.before.lastSeenAt.toISOString()}::timestamptz, ${query.before.domain})`,
    )
    .orderBy(desc(lastSeen), desc(licenseCheckins.domain))
    .limit(query.limit);
  return rows.flatMap((row) =>
    row.firstSeenAt && row.lastSeenAt ? [{ ...row, firstSeenAt: row.firstSeenAt, lastSeenAt: row.lastSeenAt }] : [],
  );
}

/** The same totals for exactly these domains (the evidence of a store report). */
export async function uncoveredTotalsOf(db: DbOrTx, domains: string[]): Promise<UncoveredDomainRow[]> {
  if (domains.length === 0) return [];
  const rows = await db
    .select({
      domain: licenseCheckins.domain,
      checkins: checkinTotal,
      firstSeenAt: min(licenseCheckins.firstSeenAt),
      lastSeenAt: max(licenseCheckins.lastSeenAt),
    })
    .from(licenseCheckins)
    .where(and(not(licenseCheckins.covered), inArray(licenseCheckins.domain, domains)))
    .groupBy(licenseCheckins.domain);
  return rows.flatMap((row) =>
    row.firstSeenAt && row.lastSeenAt ? [{ ...row, firstSeenAt: row.firstSeenAt, lastSeenAt: row.lastSeenAt }] : [],
  );
}

/** The same totals per key (the evidence behind a store report's automatic approval, ADR 037). */
export async function uncoveredTotalsByKeyOf(
  db: DbOrTx,
  domains: string[],
): Promise<(UncoveredDomainRow & { keyId: number })[]> {
  if (domains.length === 0) return [];
  const rows = await db
    .select({
      domain: licenseCheckins.domain,
      keyId: licenseCheckins.keyId,
      checkins: checkinTotal,
      firstSeenAt: min(licenseCheckins.firstSeenAt),
      lastSeenAt: max(licenseCheckins.lastSeenAt),
    })
    .from(licenseCheckins)
    .where(and(not(licenseCheckins.covered), inArray(licenseCheckins.domain, domains)))
    .groupBy(licenseCheckins.domain, licenseCheckins.keyId);
  return rows.flatMap((row) =>
    row.firstSeenAt && row.lastSeenAt ? [{ ...row, firstSeenAt: row.firstSeenAt, lastSeenAt: row.lastSeenAt }] : [],
  );
}

/** What was seen on these domains with uncovering tokens: each (domain, key, version, edition). */
export function uncoveredDetailsOf(db: DbOrTx, domains: string[]) {
  if (domains.length === 0) return Promise.resolve([]);
  return db
    .selectDistinct({
      domain: licenseCheckins.domain,
      keyId: licenseCheckins.keyId,
      version: licenseCheckins.version,
      edition: licenseCheckins.edition,
    })
    .from(licenseCheckins)
    .where(and(not(licenseCheckins.covered), inArray(licenseCheckins.domain, domains)));
}

const likePrefix = (text: string) => `${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/**
 * Covered check-ins of an edition as evidence of what a key's store runs (issue 12's "which stores run which
 * version", ADR 029): a query the releases module unions with its downloads, never runs on its own. Same columns as
 * the releases module's download evidence.
 */
export function coveredCheckinEvidence(db: DbOrTx, edition: Tier) {
  return db
    .select({
      keyId: licenseCheckins.keyId,
      version: licenseCheckins.version,
      store: sql<string | null>`${licenseCheckins.domain}`.as('store'),
      seenAt: sql<Date>`${licenseCheckins.lastSeenAt}`.as('seen_at'),
      seenBy: sql<'download' | 'check-in'>`'check-in'`.as('seen_by'),
    })
    .from(licenseCheckins)
    .where(and(eq(licenseCheckins.edition, edition), eq(licenseCheckins.covered, true)));
}
