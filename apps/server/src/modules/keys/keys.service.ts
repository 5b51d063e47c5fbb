import { OWNED_KEY_NOT_FOUND, type Key } from '@keyport/shared/contracts/keys';
import { flagsFromTier, type Tier } from '@keyport/shared/domain/tiers';
import { stripStoredUrl } from '@keyport/shared/domain/website-domain';
import type { Db, DbOrTx } from '../../db/client';
import { conflict, notFound } from '../../http/errors';
import type { RateLimiter } from '../../http/rate-limit';
import { generateLicenseKey, normalizeLicenseKey } from './license-key-format';
import * as repo from './keys.repo';

export const KEY_ALREADY_YOURS = 'This license key is already in your account.';
export const KEY_OWNED_BY_ANOTHER = 'This license key is already registered to another account.';
/** Adding a key that does not exist: the person typed it, so they are told to check it. */
export const KEY_NOT_FOUND = 'License key not found. Check the key and try again.';

/** A key as other modules see it, once its owner is known to be the caller. */
export interface OwnedKey {
  id: number;
  apiKey: string;
  /** The key's opaque public id: the `sub` of its theme tokens (ADR 030). */
  publicId: string;
  tier: Tier;
  /** Bumped on every new theme token and on disconnect. */
  tokenVersion: number;
  /** The current theme auth token, null before the first. */
  authToken: string | null;
  /** The store it is connected to: its myshopify domain, else its website, else its app store; null if none. */
  store: string | null;
}

/** An owned key with its §3 Key form (domains included), for answers that show the key. */
export interface OwnedKeyRecord extends OwnedKey {
  key: Key;
}

export interface TierChange {
  keyId: number;
  ownerId: number;
  from: Tier;
  to: Tier;
  reason: 'purchase' | 'token' | 'refund' | 'dispute';
  /** What caused it, e.g. 'order:12' or 'token:7'. */
  reference: string;
}

export interface ConnectionDomains {
  mainUrl: string | null;
  myshopify: string | null;
  secondaryUrl: string | null;
}

/** A key as staff see it: its connection and dates, never its token. */
export type StaffKeyRow = repo.StaffKeyRow;

const ownedKeyNotFound = () => notFound(OWNED_KEY_NOT_FOUND, 'key_not_found');

/** §3 Key, from a stored license key (the tier is stored once; pro/lite are derived from it). */
export function toKey(row: repo.KeyColumns): Key {
  return {
    id: row.id,
    api_key: row.apiKey,
    ...flagsFromTier(row.tier),
    linked_app_store: row.linkedAppStore,
    main_url: row.mainUrl,
    myshopify: row.myshopify,
    secondary_url: row.secondaryUrl,
  };
}

/** What a theme token's validity depends on (issue 13): the key's owner, tier and current token version. */
export interface KeyState {
  id: number;
  ownerId: number | null;
  tier: Tier;
  tokenVersion: number;
}

/** Told the id of a key whose owner, tier or token version this process just changed. */
export type KeyStateListener = (keyId: number) => void;

export interface KeysServiceDeps {
  db: Db;
  /** Add-key attempts, successful or not, per user and per IP: guessing keys stays impractical. */
  addKeyLimits: { byUser: RateLimiter; byIp: RateLimiter };
}

/**
 * License keys: the only module that reads or writes `license_keys`. Other modules reach a key through this service
 * (owner-scoped look-ups, the connection and its token version), never through the table.
 */
export function createKeysService({ db, addKeyLimits }: KeysServiceDeps) {
  const listKeysByOwner = repo.prepareListKeysByOwner(db);
  const listeners: KeyStateListener[] = [];
  /** Tells this process's caches (the validation API's key state, ADR 031) that a key changed. */
  const changed = (keyId: number | null | undefined) => {
    if (keyId === null || keyId === undefined) return;
    for (const listener of listeners) listener(keyId);
  };
  return {
    /**
     * Calls `listener` with the id of every key whose owner, tier or token version this process changes (after the
     * statement, inside the caller's transaction when there is one: a cache reloading before the commit is bounded by
     * its own TTL, ADR 031).
     */
    onKeyStateChanged(listener: KeyStateListener): void {
      listeners.push(listener);
    },

    /** The state of each of these keys that exists (one query; the validation API's cache loads through it). */
    findKeyStates(keyIds: number[]): Promise<KeyState[]> {
      return repo.findKeyStates(db, keyIds);
    },

    /** The caller's key by its license key text (any case, spaces around); 404 'License key not found.' otherwise. */
    async requireOwnedKey(ownerId: number, submittedKey: string, tx: DbOrTx = db): Promise<OwnedKeyRecord> {
      const row = await repo.findOwnedKey(tx, ownerId, normalizeLicenseKey(submittedKey));
      if (!row) throw ownedKeyNotFound();
      return {
        id: row.id,
        apiKey: row.apiKey,
        publicId: row.publicId,
        tier: row.tier,
        tokenVersion: row.tokenVersion,
        authToken: row.authToken,
        store: row.store,
        key: toKey(row),
      };
    },

    /** The caller's key by id, or null. */
    findOwnedKeyById(ownerId: number, keyId: number, tx: DbOrTx = db): Promise<OwnedKey | null> {
      return repo.findOwnedKeyById(tx, ownerId, keyId);
    },

    /** A key by id whoever holds it, or null: only to check a token that names it. */
    findKeyById(keyId: number, tx: DbOrTx = db): Promise<(OwnedKey & { ownerId: number | null }) | null> {
      return repo.findKeyById(tx, keyId);
    },

    /**
     * Saves the caller's key's domains and takes its next token version (one conditional UPDATE). Run it in the
     * transaction that then stores the token signed for that version.
     */
    async saveConnection(
      ownerId: number,
      submittedKey: string,
      domains: ConnectionDomains,
      issuedAt: Date,
      tx: DbOrTx,
    ) {
      const key = await repo.saveConnection(tx, ownerId, normalizeLicenseKey(submittedKey), domains, issuedAt);
      if (!key) throw ownedKeyNotFound();
      changed(key.id);
      return key;
    },

    /**
     * The one path to a new tier, whatever paid for it (a card payment, a token, a refund's revert). Inside the caller's
     * transaction: the key must still be the owner's and at `from`; an audit row records why. Null when nothing changed.
     */
    /**
     * Locks the key's row for the rest of `tx` and answers its tier and owner (null when there is no such key): a
     * payment's capture claim checks the upgrade still applies while no tier change can run (ADR 035).
     */
    lockKey(keyId: number, tx: DbOrTx): Promise<{ tier: Tier; ownerId: number | null } | null> {
      return repo.lockKey(tx, keyId);
    },

    async changeTier(change: TierChange, tx: DbOrTx): Promise<Key | null> {
      const row = await repo.changeTier(tx, change.keyId, change.ownerId, change.from, change.to);
      if (!row) return null;
      changed(row.id);
      await repo.insertTierChange(tx, {
        licenseKeyId: change.keyId,
        fromTier: change.from,
        toTier: change.to,
        reason: change.reason,
        reference: change.reference,
        actorUserId: change.ownerId,
      });
      return toKey(row);
    },

    /**
     * Theme upgrade (issue 10), inside the caller's short transaction: moves the store connection (domains) of the
     * owner's key `fromKeyId` to `toKeyId` and frees `fromKeyId` to connect another store. The target must still be at
     * token version `expectedTargetVersion` (the token written into the upgraded theme was signed for the next one);
     * 409 otherwise, and the caller's transaction rolls back.
     */
    async moveConnection(
      move: {
        ownerId: number;
        fromKeyId: number;
        toKeyId: number;
        expectedTargetVersion: number;
        domains: ConnectionDomains;
        issuedAt: Date;
      },
      tx: DbOrTx,
    ): Promise<{ tokenVersion: number }> {
      const freed = await repo.clearConnection(tx, move.ownerId, move.fromKeyId);
      if (!freed) throw ownedKeyNotFound();
      changed(freed.id);
      const saved = await repo.saveConnectionIfVersion(
        tx,
        move.ownerId,
        move.toKeyId,
        move.expectedTargetVersion,
        move.domains,
        move.issuedAt,
      );
      if (!saved)
        throw conflict('The license key changed while the theme was upgraded. Please try again.', 'key_changed');
      changed(saved.id);
      return { tokenVersion: saved.tokenVersion };
    },

    listTierChanges: (keyId: number, tx: DbOrTx = db) => repo.listTierChanges(tx, keyId),

    /** Stores the token signed for `version` (nothing, when a newer version was taken meanwhile). */
    storeToken(keyId: number, version: number, token: string, tx: DbOrTx = db): Promise<void> {
      return repo.storeToken(tx, keyId, version, token);
    },

    async listKeys(ownerId: number): Promise<Key[]> {
      return listKeysByOwner(ownerId);
    },

    /** §5 "Add key": claims an existing, unclaimed key for the user. */
    async addKey(ownerId: number, submittedKey: string, ip: string): Promise<Key> {
      await addKeyLimits.byIp.hit(`add-key:${ip}`);
      await addKeyLimits.byUser.hit(`add-key:${ownerId}`);
      const apiKey = normalizeLicenseKey(submittedKey);
      // Claim first, explain afterwards: the claim is one conditional UPDATE, never a read-then-write.
      // A second pass covers a key released between a failed claim and the look-up.
      for (let attempt = 0; attempt < 2; attempt++) {
        const claimed = await repo.claimUnownedKey(db, apiKey, ownerId);
        if (claimed) {
          changed(claimed.id);
          return toKey(claimed);
        }
        const current = await repo.findKeyOwner(db, apiKey);
        if (!current) throw notFound(KEY_NOT_FOUND, 'key_not_found');
        if (current.ownerId === ownerId) throw conflict(KEY_ALREADY_YOURS, 'key_already_yours');
        if (current.ownerId !== null) throw conflict(KEY_OWNED_BY_ANOTHER, 'key_owned_by_another');
      }
      throw conflict(KEY_OWNED_BY_ANOTHER, 'key_owned_by_another');
    },

    /** "Disconnect": releases the caller's key and clears its store; someone else's key is simply not found. */
    async disconnectKey(ownerId: number, submittedKey: string): Promise<void> {
      const released = await repo.releaseOwnedKey(db, normalizeLicenseKey(submittedKey), ownerId);
      if (!released) throw ownedKeyNotFound();
      changed(released.id);
    },

    /**
     * A new key of `tier` owned by `ownerId` from the start (a license bought with credits), inside the caller's
     * transaction: the debit that paid for it commits with it or not at all.
     */
    async mintOwnedKey(tx: DbOrTx, ownerId: number, tier: Tier): Promise<{ id: number; key: Key }> {
      for (;;) {
        const row = await repo.insertOwnedKey(tx, tier, generateLicenseKey(), ownerId);
        if (row) return { id: row.id, key: toKey(row) };
      }
    },

    // ---- Staff (issue 12, ADR 027) ----

    /** A customer's keys with their connection and dates (no token). */
    listKeysForStaff: (ownerId: number, tx: DbOrTx = db) => repo.listKeysForStaff(tx, ownerId),

    /** The owner's key by id as staff see it; 404 'License key not found.' when the owner does not hold it. */
    async requireOwnedKeyForStaff(ownerId: number, keyId: number, tx: DbOrTx = db): Promise<repo.StaffKeyRow> {
      const row = await repo.findOwnedKeyForStaff(tx, ownerId, keyId);
      if (!row) throw ownedKeyNotFound();
      return row;
    },

    /** How many keys each user holds (0 when absent from the map). */
    countKeysByOwners: (ownerIds: number[]) => repo.countKeysByOwners(db, ownerIds),

    /**
     * Staff search: the owners of the key `text` names (any case) and of keys whose store host starts with it (a
     * URL's scheme and path are ignored). At most `limit` owners.
     */
    findOwnersMatching(text: string, limit: number): Promise<number[]> {
      const host = stripStoredUrl(text).replace(/[/?#].*$/, '');
      return repo.findOwnersOfMatchingKeys(db, {
        apiKey: normalizeLicenseKey(text),
        host: host === '' ? null : host,
        limit,
      });
    },

    /**
     * Staff release a key from its owner's account, inside the caller's transaction: its store and token are cleared,
     * the key stays unclaimed. 404 when the owner does not hold it.
     */
    async releaseKeyById(ownerId: number, keyId: number, tx: DbOrTx): Promise<{ id: number; apiKey: string }> {
      const released = await repo.releaseOwnedKeyById(tx, keyId, ownerId);
      if (!released) throw ownedKeyNotFound();
      changed(released.id);
      return released;
    },

    /**
     * The stores (bare hosts, as the key's columns name them) of the keys connected to any of `hosts`, with each key's
     * owner (null while unclaimed): the store-report rules "holds a license of ours" and "your own store".
     */
    async connectionsTo(hosts: string[], tx: DbOrTx = db): Promise<{ ownerId: number | null; hosts: string[] }[]> {
      const rows = await repo.findKeysConnectedTo(tx, hosts);
      return rows.map((row) => ({
        ownerId: row.ownerId,
        hosts: [row.linkedAppStore, row.mainUrl, row.myshopify, row.secondaryUrl].flatMap((value) => {
          const host = stripStoredUrl(value);
          return host === '' ? [] : [host];
        }),
      }));
    },

    /** New unclaimed keys (POST /staff/keys), inside the caller's transaction (its audit row commits with them). */
    async mintKeys(tier: Tier, count: number, tx: DbOrTx = db): Promise<string[]> {
      const minted: string[] = [];
      while (minted.length < count) {
        const batch = Array.from({ length: count - minted.length }, generateLicenseKey);
        const inserted = await repo.insertUnclaimedKeys(tx, tier, batch);
        minted.push(...inserted.map((row) => row.apiKey));
      }
      return minted;
    },
  };
}
export type KeysService = ReturnType<typeof createKeysService>;
