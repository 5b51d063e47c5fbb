import type { HomepageData, HomepageUpdate } from '@keyport/shared/contracts/homepage';
import type { Db } from '../../db/client';
import * as repo from './homepage.repo';

/** The dashboard's updates feed: customers read the published list; staff edit a draft and publish it. */
export function createHomepageService({ db }: { db: Db }) {
  return {
    async getUpdates(version: 'published' | 'draft'): Promise<HomepageData> {
      const settings = await repo.findHomepageSettings(db);
      return { updates: settings?.[version] ?? [] };
    },

    /** Saves the draft, and with `publish` makes it what customers see. Answers with what was saved. */
    async saveUpdates(updates: HomepageUpdate[], publish: boolean, staffId: number): Promise<HomepageData> {
      if (publish) await repo.publishHomepageUpdates(db, updates, staffId);
      else await repo.saveHomepageDraft(db, updates, staffId);
      return { updates };
    },
  };
}
export type HomepageService = ReturnType<typeof createHomepageService>;
