import type { Key } from '@keyport/shared/contracts/keys';
import { flagsFromTier, type Tier } from '@keyport/shared/domain/tiers';
import type { Db } from '../../db/client';
import { conflict, notFound } from '../../http/errors';
import type { RateLimiter } from '../../http/rate-limit';
import { generateLicenseKey, normalizeLicenseKey } from './license-key-format';
import * as repo from './keys.repo';

export const KEY_ALREADY_YOURS = 'This license key is already in your account.';
export const KEY_OWNED_BY_ANOTHER = 'This license key is already registered to another account.';
export const KEY_NOT_FOUND = 'License key not found. Check the key and try again.';
export const KEY_TO_DISCONNECT_NOT_FOUND = 'License key not found.';

/** §3 Key, from a stored license key (the tier is stored once; pro/lite are derived from it). */
export function toKey(row: repo.LicenseKeyRow): Key {
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

export interface KeysServiceDeps {
  db: Db;
  /** Add-key attempts, successful or not, per user and per IP: guessing keys stays impractical. */
  addKeyLimits: { byUser: RateLimiter; byIp: RateLimiter };
}

export function createKeysService({ db, addKeyLimits }: KeysServiceDeps) {
  const listKeysByOwner = repo.prepareListKeysByOwner(db);
  return {
    async listKeys(ownerId: number): Promise<Key[]> {
      const rows = await listKeysByOwner.execute({ ownerId });
      return rows.map(toKey);
    },

    /** §5 "Add key": claims an existing, unclaimed key for the user. */
    async addKey(ownerId: number, submittedKey: string, ip: string): Promise<Key> {
      addKeyLimits.byIp.hit(`add-key:${ip}`);
      addKeyLimits.byUser.hit(`add-key:${ownerId}`);
      const apiKey = normalizeLicenseKey(submittedKey);
      // Claim first, explain afterwards: the claim is one conditional UPDATE, never a read-then-write.
      // A second pass covers a key released between a failed claim and the look-up.
      for (let attempt = 0; attempt < 2; attempt++) {
        const claimed = await repo.claimUnownedKey(db, apiKey, ownerId);
        if (claimed) return toKey(claimed);
        const current = await repo.findKeyOwner(db, apiKey);
        if (!current) throw notFound(KEY_NOT_FOUND);
        if (current.ownerId === ownerId) throw conflict(KEY_ALREADY_YOURS);
        if (current.ownerId !== null) throw conflict(KEY_OWNED_BY_ANOTHER);
      }
      throw conflict(KEY_OWNED_BY_ANOTHER);
    },

    /** "Disconnect": releases the caller's key and clears its store; someone else's key is simply not found. */
    async disconnectKey(ownerId: number, submittedKey: string): Promise<void> {
      const released = await repo.releaseOwnedKey(db, normalizeLicenseKey(submittedKey), ownerId);
      if (!released) throw notFound(KEY_TO_DISCONNECT_NOT_FOUND);
    },

    async mintKeys(tier: Tier, count: number): Promise<string[]> {
      const minted: string[] = [];
      while (minted.length < count) {
        const batch = Array.from({ length: count - minted.length }, generateLicenseKey);
        const inserted = await repo.insertUnclaimedKeys(db, tier, batch);
        minted.push(...inserted.map((row) => row.apiKey));
      }
      return minted;
    },
  };
}
export type KeysService = ReturnType<typeof createKeysService>;
