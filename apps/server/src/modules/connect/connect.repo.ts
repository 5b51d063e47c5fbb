import { eq } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { userStores } from '../../db/schema';

/** Remembers a store the user connected a key to (§3 "User store list item"); once per domain. */
export async function rememberStore(db: DbOrTx, userId: number, myshopifyDomain: string) {
  await db.insert(userStores).values({ userId, myshopifyDomain }).onConflictDoNothing();
}

/** §7 GET /auth/user-stores: the user's connected stores, oldest first. */
export function listUserStores(db: DbOrTx, userId: number) {
  return db
    .select({ id: userStores.id, myshopify_domain: userStores.myshopifyDomain })
    .from(userStores)
    .where(eq(userStores.userId, userId))
    .orderBy(userStores.id);
}
