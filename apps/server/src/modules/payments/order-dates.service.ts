import type { DbOrTx } from '../../db/client';
import * as repo from './payments.repo';

/**
 * The dates of a user's legacy orders, for `/auth/me`'s `orders` (§3 "User fields read"; §9 support status: newest
 * order + 1 year). A reader of the payments module's one orders table built before the auth service (which every
 * other service needs), so construction stays one way (issue 21, ADR 044). Only legacy orders count, as before the
 * tables were merged: no customer's support status moved with the merge.
 */
export function createOrderDates(deps: { db: DbOrTx }) {
  return {
    legacyOrdersOf: (userId: number) => repo.listLegacyOrderDates(deps.db, userId),
  };
}
export type OrderDates = ReturnType<typeof createOrderDates>;
