import { eq, sql } from 'drizzle-orm';
import type { HomepageUpdate } from '@keyport/shared/contracts/homepage';
import type { DbOrTx } from '../../db/client';
import { homepageSettings } from '../../db/schema';

/** The feed lives in one row; this is its id. */
const SETTINGS_ID = 1;

/** The published feed and the staff draft, or null before anything was ever saved. */
export function findHomepageSettings(db: DbOrTx) {
  return db
    .select({ published: homepageSettings.published, draft: homepageSettings.draft })
    .from(homepageSettings)
    .where(eq(homepageSettings.id, SETTINGS_ID))
    .then((rows) => rows[0] ?? null);
}

/** Saves the draft; the published feed is untouched (an empty one when the row is new). */
export async function saveHomepageDraft(db: DbOrTx, draft: HomepageUpdate[], updatedBy: number) {
  await db
    .insert(homepageSettings)
    .values({ id: SETTINGS_ID, draft, updatedBy })
    .onConflictDoUpdate({
      target: homepageSettings.id,
      set: { draft: sql`excluded.draft`, updatedAt: sql`now()`, updatedBy: sql`excluded.updated_by` },
    });
}

/** Saves the draft and publishes it, in one statement. */
export async function publishHomepageUpdates(db: DbOrTx, updates: HomepageUpdate[], updatedBy: number) {
  await db
    .insert(homepageSettings)
    .values({ id: SETTINGS_ID, draft: updates, published: updates, updatedBy })
    .onConflictDoUpdate({
      target: homepageSettings.id,
      set: {
        draft: sql`excluded.draft`,
        published: sql`excluded.published`,
        updatedAt: sql`now()`,
        updatedBy: sql`excluded.updated_by`,
      },
    });
}
