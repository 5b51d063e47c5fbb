import type { Key } from '@keyport/shared/contracts/keys';
import { flagsFromTier, type Tier } from '@keyport/shared/domain/tiers';
import type { Db } from '../../db/client';
import { generateLicenseKey } from './license-key-format';
import * as repo from './keys.repo';

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

export function createKeysService({ db }: { db: Db }) {
  const listKeysByOwner = repo.prepareListKeysByOwner(db);
  return {
    async listKeys(ownerId: number): Promise<Key[]> {
      const rows = await listKeysByOwner.execute({ ownerId });
      return rows.map(toKey);
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
