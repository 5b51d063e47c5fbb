import { sql } from 'drizzle-orm';
import {
  bigint,
  check,
  index,
  integer,
  jsonb,
  pgEnum,
  pgTable,
  serial,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import type { HomepageUpdate } from '@keyport/shared/contracts/homepage';

const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();

export const tierEnum = pgEnum('tier', ['LITE', 'REGULAR', 'PRO']);

export const users = pgTable(
  'users',
  {
    id: serial('id').primaryKey(),
    email: text('email').notNull(),
    name: text('name').notNull(),
    passwordHash: text('password_hash').notNull(),
    /** null for customers; e.g. 'team' or 'staff'. */
    role: text('role'),
    /** true, false, an ISO date string, or null (unset: derived from the newest order). */
    hasLifetimeSupport: jsonb('has_lifetime_support').$type<boolean | string | null>(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('users_email_lower_unique').on(sql`lower(${t.email})`)],
);

export const sessions = pgTable(
  'sessions',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** SHA-256 of the token; the token itself is never stored. */
    tokenHash: text('token_hash').notNull().unique(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('sessions_user_idx').on(t.userId)],
);

export const passwordResets = pgTable('password_resets', {
  id: serial('id').primaryKey(),
  userId: integer('user_id')
    .notNull()
    .references(() => users.id, { onDelete: 'cascade' }),
  tokenHash: text('token_hash').notNull().unique(),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  usedAt: timestamp('used_at', { withTimezone: true }),
  createdAt: createdAt(),
});

export const licenseKeys = pgTable(
  'license_keys',
  {
    id: serial('id').primaryKey(),
    apiKey: text('api_key').notNull().unique(),
    tier: tierEnum('tier').notNull(),
    /** null while the key is unclaimed. */
    ownerId: integer('owner_id').references(() => users.id, { onDelete: 'set null' }),
    linkedAppStore: text('linked_app_store'),
    mainUrl: text('main_url'),
    myshopify: text('myshopify'),
    secondaryUrl: text('secondary_url'),
    claimedAt: timestamp('claimed_at', { withTimezone: true }),
    /** The latest theme auth token (a signed JWT); shown again to the owner only. */
    authToken: text('auth_token'),
    /** Bumped on every new token, so older tokens can be told apart. */
    tokenVersion: integer('token_version').notNull().default(0),
    tokenIssuedAt: timestamp('token_issued_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [index('license_keys_owner_idx').on(t.ownerId, t.id)],
);

export const orders = pgTable(
  'orders',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    description: text('description').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('orders_user_idx').on(t.userId)],
);

export const userStores = pgTable(
  'user_stores',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    myshopifyDomain: text('myshopify_domain').notNull(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('user_stores_user_domain_unique').on(t.userId, t.myshopifyDomain)],
);

export const emailOutbox = pgTable('email_outbox', {
  id: serial('id').primaryKey(),
  to: text('to').notNull(),
  subject: text('subject').notNull(),
  body: text('body').notNull(),
  sentAt: timestamp('sent_at', { withTimezone: true }),
  error: text('error'),
  createdAt: createdAt(),
});

/** The dashboard's updates feed (§3 "Homepage data"): one row (id 1), what customers see and the staff draft. */
export const homepageSettings = pgTable(
  'homepage_settings',
  {
    id: integer('id').primaryKey().default(1),
    published: jsonb('published').$type<HomepageUpdate[]>().notNull().default([]),
    draft: jsonb('draft').$type<HomepageUpdate[]>().notNull().default([]),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    updatedBy: integer('updated_by').references(() => users.id, { onDelete: 'set null' }),
  },
  (t) => [check('homepage_settings_single_row', sql`${t.id} = 1`)],
);

/** A theme release per edition: the zip lives in the storage port under `storageKey`. */
export const releases = pgTable(
  'releases',
  {
    id: serial('id').primaryKey(),
    edition: tierEnum('edition').notNull(),
    version: text('version').notNull(),
    notes: text('notes').notNull().default(''),
    themeName: text('theme_name'),
    storageKey: text('storage_key').notNull(),
    sizeBytes: bigint('size_bytes', { mode: 'number' }).notNull(),
    createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('releases_edition_version_unique').on(t.edition, t.version),
    index('releases_edition_idx').on(t.edition, t.id),
  ],
);
