import type { HomepageData, HomepageUpdate } from '@keyport/shared/contracts/homepage';
import type { Db } from '../../db/client';
import type { AuditService } from '../audit/audit.service';
import * as repo from './homepage.repo';

/** The feed's one settings row, as the audit log names it. */
const FEED_OBJECT = { type: 'homepage_settings', id: 1 } as const;

/** The dashboard's updates feed: customers read the published list; staff edit a draft and publish it. */
export function createHomepageService({ db, audit }: { db: Db; audit: Pick<AuditService, 'record'> }) {
  return {
    async getUpdates(version: 'published' | 'draft'): Promise<HomepageData> {
      const settings = await repo.findHomepageSettings(db);
      return { updates: settings?.[version] ?? [] };
    },

    /**
     * Saves the draft, and with `publish` makes it what customers see; the staff member's reason goes to the audit log
     * in the same transaction (issue 12). Answers with what was saved.
     */
    async saveUpdates(
      updates: HomepageUpdate[],
      publish: boolean,
      staff: { id: number; reason: string },
    ): Promise<HomepageData> {
      await db.transaction(async (tx) => {
        if (publish) await repo.publishHomepageUpdates(tx, updates, staff.id);
        else await repo.saveHomepageDraft(tx, updates, staff.id);
        await audit.record(tx, {
          actor: { type: 'staff', id: staff.id },
          action: publish ? 'homepage.published' : 'homepage.draft_saved',
          object: FEED_OBJECT,
          reason: staff.reason,
          data: { titles: updates.map((update) => update.title) },
        });
      });
      return { updates };
    },
  };
}
export type HomepageService = ReturnType<typeof createHomepageService>;
