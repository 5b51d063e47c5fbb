/** Columns and enums several modules' tables share. */
import { pgEnum, timestamp } from 'drizzle-orm/pg-core';

export const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();

export const tierEnum = pgEnum('tier', ['LITE', 'REGULAR', 'PRO']);

export const upgradePathEnum = pgEnum('upgrade_path', ['LITE_TO_REGULAR', 'REGULAR_TO_PRO', 'LITE_TO_PRO']);
