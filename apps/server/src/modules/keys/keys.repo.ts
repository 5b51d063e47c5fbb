import { and, asc, count, eq, getTableColumns, inArray, isNotNull, isNull, like, or, sql, type SQL } from 'drizzle-orm';
import type { Tier } from '@keyport/shared/domain/tiers';
import { prepareArrayRows } from '../../db/array-rows';
import type { Db, DbOrTx } from '../../db/client';
import { licenseKeys, licenseKeyTierChanges } from '../../db/schema';

export type LicenseKeyRow = typeof licenseKeys.$inferSelect;

/** The columns a `Key` shows (the token, its version and the timestamps stay in the database). */
export const KEY_COLUMNS = {
  id: licenseKeys.id,
  apiKey: licenseKeys.apiKey,
  tier: licenseKeys.tier,
  linkedAppStore: licenseKeys.linkedAppStore,
  mainUrl: licenseKeys.mainUrl,
  myshopify: licenseKeys.myshopify,
  secondaryUrl: licenseKeys.secondaryUrl,
};
export type KeyColumns = Pick<LicenseKeyRow, keyof typeof KEY_COLUMNS>;

/** A `Key` as the API shows it (snake_case, the tier as two flags): what the owner's keys list selects directly. */
export interface KeyListRow {
  id: number;
  api_key: string;
  pro: boolean;
  lite: boolean;
  linked_app_store: string | null;
  main_url: string | null;
  myshopify: string | null;
  secondary_url: string | null;
}

/**
 * The owner's keys, as a prepared statement: it runs on every dashboard load. Only the columns a `Key` shows: the
 * whole row (each key's signed token, three timestamps parsed into dates) cost more than the rest of the route's
 * work (docs/performance.md). Issue 22: the statement selects the `Key` itself (the flags computed by the database,
 * every column named as the API names it), so a row needs no mapping after drizzle's (ADR 045).
 */
export function prepareListKeysByOwner(db: Db): (ownerId: number) => Promise<KeyListRow[]> {
  const query = db
    .select({
      id: sql<number>`${licenseKeys.id}`.as('id'),
      api_key: sql<string>`${licenseKeys.apiKey}`.as('api_key'),
      pro: sql<boolean>`${licenseKeys.tier} = 'PRO'`.as('pro'),
      lite: sql<boolean>`${licenseKeys.tier} = 'LITE'`.as('lite'),
      linked_app_store: sql<string | null>`${licenseKeys.linkedAppStore}`.as('linked_app_store'),
      main_url: sql<string | null>`${licenseKeys.mainUrl}`.as('main_url'),
      myshopify: sql<string | null>`${licenseKeys.myshopify}`.as('myshopify'),
      secondary_url: sql<string | null>`${licenseKeys.secondaryUrl}`.as('secondary_url'),
    })
    .from(licenseKeys)
    .where(eq(licenseKeys.ownerId, sql.placeholder('ownerId')))
    .orderBy(asc(licenseKeys.id));
  // Issue 22: none of drizzle's per-column mapping (ADR 047: `mapResultRow` asked `is(field, Column)` and its kin for
  // every column of every row, about 30 µs for 9 keys), and (ADR 049) the driver's own prepared statement with rows
  // as arrays, each made into one literal of the `Key`'s shape: the values in the select's order above.
  const prepared = prepareArrayRows(db, 'list_keys_by_owner', query, (row): KeyListRow => ({
    id: row[0] as number,
    api_key: row[1] as string,
    pro: row[2] as boolean,
    lite: row[3] as boolean,
    linked_app_store: row[4] as string | null,
    main_url: row[5] as string | null,
    myshopify: row[6] as string | null,
    secondary_url: row[7] as string | null,
  }));
  return (ownerId) => prepared({ ownerId });
}

/** Inserts new unclaimed keys; returns them. A (vanishingly unlikely) duplicate key is skipped, not overwritten. */
export function insertUnclaimedKeys(db: DbOrTx, tier: Tier, apiKeys: string[]) {
  return db
    .insert(licenseKeys)
    .values(apiKeys.map((apiKey) => ({ apiKey, tier })))
    .onConflictDoNothing()
    .returning({ apiKey: licenseKeys.apiKey });
}

/** Inserts a new key already owned by `ownerId` (a license bought with credits); null on a (vanishingly unlikely) duplicate. */
export function insertOwnedKey(db: DbOrTx, tier: Tier, apiKey: string, ownerId: number) {
  return db
    .insert(licenseKeys)
    .values({ apiKey, tier, ownerId, claimedAt: sql`now()` })
    .onConflictDoNothing()
    .returning(KEY_COLUMNS)
    .then((rows) => rows[0] ?? null);
}

/**
 * Keys connected to any of `hosts` (bare hosts): the myshopify column holds the bare host, the website columns the
 * stored 'https://host' form (older rows may hold the bare host). Equality on each indexed column.
 */
export function findKeysConnectedTo(db: DbOrTx, hosts: string[]) {
  if (hosts.length === 0) return Promise.resolve([]);
  const forms = hosts.flatMap((host) => [host, `https://${host}`, `http://${host}`]);
  return db
    .select({
      ownerId: licenseKeys.ownerId,
      linkedAppStore: licenseKeys.linkedAppStore,
      mainUrl: licenseKeys.mainUrl,
      myshopify: licenseKeys.myshopify,
      secondaryUrl: licenseKeys.secondaryUrl,
    })
    .from(licenseKeys)
    .where(
      or(
        inArray(licenseKeys.myshopify, hosts),
        inArray(licenseKeys.linkedAppStore, forms),
        inArray(licenseKeys.mainUrl, forms),
        inArray(licenseKeys.secondaryUrl, forms),
      ),
    );
}

/**
 * Claims an unclaimed key for `ownerId` in one statement: of two people adding the same key at once, the
 * `owner_id IS NULL` condition lets exactly one win. Null when nothing was claimed.
 */
export function claimUnownedKey(db: DbOrTx, apiKey: string, ownerId: number) {
  return db
    .update(licenseKeys)
    .set({ ownerId, claimedAt: sql`now()` })
    .where(and(eq(licenseKeys.apiKey, apiKey), isNull(licenseKeys.ownerId)))
    .returning()
    .then((rows) => rows[0] ?? null);
}

/** Who owns a key: `{ ownerId }` (null while unclaimed), or null when the key does not exist. */
export function findKeyOwner(db: DbOrTx, apiKey: string) {
  return db
    .select({ ownerId: licenseKeys.ownerId })
    .from(licenseKeys)
    .where(eq(licenseKeys.apiKey, apiKey))
    .then((rows) => rows[0] ?? null);
}

/**
 * Releases a key from its owner and clears its store connection, in one statement that only matches the
 * owner's key. The row stays, unclaimed, so the key can be added again. Null when nothing matched.
 */
export function releaseOwnedKey(db: DbOrTx, apiKey: string, ownerId: number) {
  return releaseKeyWhere(db, and(eq(licenseKeys.apiKey, apiKey), eq(licenseKeys.ownerId, ownerId)));
}

/** The same by key id (staff release a key from a customer's account). */
export function releaseOwnedKeyById(db: DbOrTx, keyId: number, ownerId: number) {
  return releaseKeyWhere(db, and(eq(licenseKeys.id, keyId), eq(licenseKeys.ownerId, ownerId)));
}

function releaseKeyWhere(db: DbOrTx, where: SQL | undefined) {
  return db
    .update(licenseKeys)
    .set({
      ownerId: null,
      linkedAppStore: null,
      mainUrl: null,
      myshopify: null,
      secondaryUrl: null,
      claimedAt: null,
      // The token dies with the connection: a new version makes any copy of it stale.
      authToken: null,
      tokenVersion: sql`${licenseKeys.tokenVersion} + 1`,
      tokenIssuedAt: null,
    })
    .where(where)
    .returning({ id: licenseKeys.id, apiKey: licenseKeys.apiKey })
    .then((rows) => rows[0] ?? null);
}

/** The store a key is connected to: its myshopify domain, else its website, else its app store; null if none. */
const connectedStore = sql<
  string | null
>`coalesce(${licenseKeys.myshopify}, ${licenseKeys.mainUrl}, ${licenseKeys.linkedAppStore})`.as('store');

/** The columns other modules get for a key they may act on (its owner's). */
const ownedKeyColumns = {
  id: licenseKeys.id,
  apiKey: licenseKeys.apiKey,
  publicId: licenseKeys.publicId,
  tier: licenseKeys.tier,
  tokenVersion: licenseKeys.tokenVersion,
  authToken: licenseKeys.authToken,
  store: connectedStore,
};

/** The owner's key by its license key text, whole; null when it does not exist or someone else holds it. */
export function findOwnedKey(db: DbOrTx, ownerId: number, apiKey: string) {
  return db
    .select({ ...getTableColumns(licenseKeys), store: connectedStore })
    .from(licenseKeys)
    .where(and(eq(licenseKeys.apiKey, apiKey), eq(licenseKeys.ownerId, ownerId)))
    .then((rows) => rows[0] ?? null);
}

/** The owner's key by id; null when it does not exist or someone else holds it. */
export function findOwnedKeyById(db: DbOrTx, ownerId: number, keyId: number) {
  return db
    .select(ownedKeyColumns)
    .from(licenseKeys)
    .where(and(eq(licenseKeys.id, keyId), eq(licenseKeys.ownerId, ownerId)))
    .then((rows) => rows[0] ?? null);
}

/** A key by id, whoever holds it (to check a theme token offline-signed for it). */
export function findKeyById(db: DbOrTx, keyId: number) {
  return db
    .select({ ...ownedKeyColumns, ownerId: licenseKeys.ownerId })
    .from(licenseKeys)
    .where(eq(licenseKeys.id, keyId))
    .then((rows) => rows[0] ?? null);
}

/**
 * Saves the domains and takes the next token version, in one statement, only for the owner.
 * Null when the key is not the owner's (or does not exist).
 */
export function saveConnection(
  db: DbOrTx,
  ownerId: number,
  apiKey: string,
  domains: { mainUrl: string | null; myshopify: string | null; secondaryUrl: string | null },
  issuedAt: Date,
) {
  return db
    .update(licenseKeys)
    .set({ ...domains, tokenVersion: sql`${licenseKeys.tokenVersion} + 1`, tokenIssuedAt: issuedAt })
    .where(and(eq(licenseKeys.apiKey, apiKey), eq(licenseKeys.ownerId, ownerId)))
    .returning({
      id: licenseKeys.id,
      apiKey: licenseKeys.apiKey,
      publicId: licenseKeys.publicId,
      tier: licenseKeys.tier,
      tokenVersion: licenseKeys.tokenVersion,
    })
    .then((rows) => rows[0] ?? null);
}

/** Stores the signed token of a version, unless a newer version was taken meanwhile. */
export async function storeToken(db: DbOrTx, keyId: number, version: number, token: string) {
  await db
    .update(licenseKeys)
    .set({ authToken: token })
    .where(and(eq(licenseKeys.id, keyId), eq(licenseKeys.tokenVersion, version)));
}

/**
 * Moves the owner's key from one tier to another in one conditional statement: nothing happens unless the key is still
 * the owner's and still at `from` (so a second upgrade for the same payment, or an upgrade of a key that changed hands,
 * finds nothing). Returns the updated key or null.
 */
export function changeTier(db: DbOrTx, keyId: number, ownerId: number, from: Tier, to: Tier) {
  return db
    .update(licenseKeys)
    .set({ tier: to })
    .where(and(eq(licenseKeys.id, keyId), eq(licenseKeys.ownerId, ownerId), eq(licenseKeys.tier, from)))
    .returning()
    .then((rows) => rows[0] ?? null);
}

/**
 * Locks a key's row until the transaction ends and answers its tier and owner (issue 19): a payment's capture claim
 * and every tier change (which updates the row) take turns on it, so of a claim and a token redemption the second
 * sees what the first did.
 */
export function lockKey(db: DbOrTx, keyId: number) {
  return db
    .select({ id: licenseKeys.id, tier: licenseKeys.tier, ownerId: licenseKeys.ownerId })
    .from(licenseKeys)
    .where(eq(licenseKeys.id, keyId))
    .for('update')
    .then((rows) => rows[0] ?? null);
}

export async function insertTierChange(db: DbOrTx, values: typeof licenseKeyTierChanges.$inferInsert) {
  await db.insert(licenseKeyTierChanges).values(values);
}

export function listTierChanges(db: DbOrTx, keyId: number) {
  return db
    .select()
    .from(licenseKeyTierChanges)
    .where(eq(licenseKeyTierChanges.licenseKeyId, keyId))
    .orderBy(asc(licenseKeyTierChanges.id));
}

/**
 * Theme upgrade (issue 10): frees the owner's key `fromId` of its store — domains and token cleared, a new token
 * version — and returns the domains it had; null when it is not the owner's key.
 */
export function clearConnection(db: DbOrTx, ownerId: number, keyId: number) {
  return db
    .update(licenseKeys)
    .set({
      mainUrl: null,
      myshopify: null,
      secondaryUrl: null,
      authToken: null,
      tokenVersion: sql`${licenseKeys.tokenVersion} + 1`,
      tokenIssuedAt: null,
    })
    .where(and(eq(licenseKeys.id, keyId), eq(licenseKeys.ownerId, ownerId)))
    .returning({ id: licenseKeys.id })
    .then((rows) => rows[0] ?? null);
}

/** Saves domains on the owner's key only while its token version is still `expectedVersion`, taking the next one. */
export function saveConnectionIfVersion(
  db: DbOrTx,
  ownerId: number,
  keyId: number,
  expectedVersion: number,
  domains: { mainUrl: string | null; myshopify: string | null; secondaryUrl: string | null },
  issuedAt: Date,
) {
  return db
    .update(licenseKeys)
    .set({ ...domains, tokenVersion: sql`${licenseKeys.tokenVersion} + 1`, tokenIssuedAt: issuedAt })
    .where(
      and(eq(licenseKeys.id, keyId), eq(licenseKeys.ownerId, ownerId), eq(licenseKeys.tokenVersion, expectedVersion)),
    )
    .returning({ id: licenseKeys.id, tokenVersion: licenseKeys.tokenVersion })
    .then((rows) => rows[0] ?? null);
}

/** The columns staff see of a key (no token): its connection and when it was claimed. */
const STAFF_KEY_COLUMNS = { ...KEY_COLUMNS, claimedAt: licenseKeys.claimedAt, createdAt: licenseKeys.createdAt };
export type StaffKeyRow = Pick<LicenseKeyRow, keyof typeof STAFF_KEY_COLUMNS>;

/** A customer's keys as staff see them, oldest first. */
export function listKeysForStaff(db: DbOrTx, ownerId: number): Promise<StaffKeyRow[]> {
  return db
    .select(STAFF_KEY_COLUMNS)
    .from(licenseKeys)
    .where(eq(licenseKeys.ownerId, ownerId))
    .orderBy(asc(licenseKeys.id));
}

/** The owner's key by id, as staff see it; null when someone else holds it. */
export function findOwnedKeyForStaff(db: DbOrTx, ownerId: number, keyId: number): Promise<StaffKeyRow | null> {
  return db
    .select(STAFF_KEY_COLUMNS)
    .from(licenseKeys)
    .where(and(eq(licenseKeys.id, keyId), eq(licenseKeys.ownerId, ownerId)))
    .then((rows) => rows[0] ?? null);
}

/** How many keys each of these users holds. */
export async function countKeysByOwners(db: DbOrTx, ownerIds: number[]): Promise<Map<number, number>> {
  if (ownerIds.length === 0) return new Map();
  const rows = await db
    .select({ ownerId: licenseKeys.ownerId, n: count() })
    .from(licenseKeys)
    .where(inArray(licenseKeys.ownerId, ownerIds))
    .groupBy(licenseKeys.ownerId);
  return new Map(rows.flatMap((row) => (row.ownerId === null ? [] : [[row.ownerId, row.n] as const])));
}

const likePrefix = (text: string) => `${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/**
 * Staff search: the owners of the key whose text is `apiKey`, and of keys whose store host starts with `host` (the
 * myshopify column holds the bare host, the website columns 'https://host' or, in older rows, the bare host). Each
 * condition is a prefix match on a text_pattern_ops index. At most `limit` owners.
 */
export async function findOwnersOfMatchingKeys(
  db: DbOrTx,
  query: { apiKey: string; host: string | null; limit: number },
): Promise<number[]> {
  const conditions: (SQL | undefined)[] = [eq(licenseKeys.apiKey, query.apiKey)];
  if (query.host !== null) {
    const forms = [query.host, `https://${query.host}`, `http://${query.host}`].map(likePrefix);
    conditions.push(like(licenseKeys.myshopify, likePrefix(query.host)));
    for (const column of [licenseKeys.mainUrl, licenseKeys.secondaryUrl, licenseKeys.linkedAppStore])
      conditions.push(...forms.map((form) => like(column, form)));
  }
  const rows = await db
    .selectDistinct({ ownerId: licenseKeys.ownerId })
    .from(licenseKeys)
    .where(and(isNotNull(licenseKeys.ownerId), or(...conditions)))
    .limit(query.limit);
  return rows.flatMap((row) => (row.ownerId === null ? [] : [row.ownerId]));
}

/** What a token's validity depends on, for each of these keys (issue 13: the validation API's key-state cache). */
export function findKeyStates(db: DbOrTx, keyIds: number[]) {
  if (keyIds.length === 0) return Promise.resolve([]);
  return db
    .select({
      id: licenseKeys.id,
      ownerId: licenseKeys.ownerId,
      tier: licenseKeys.tier,
      tokenVersion: licenseKeys.tokenVersion,
    })
    .from(licenseKeys)
    .where(inArray(licenseKeys.id, keyIds));
}
