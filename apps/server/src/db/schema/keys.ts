/** modules/keys: license keys and their tier history. */
import { index, integer, pgTable, serial, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { users } from './auth';
import { createdAt, tierEnum } from './columns';

export const licenseKeys = pgTable(
  'license_keys',
  {
    id: serial('id').primaryKey(),
    apiKey: text('api_key').notNull().unique(),
    /**
     * Issue 13 (ADR 030): the key's opaque public id, the `sub` of its theme tokens (a token never carries the license
     * key itself). Random, filled for existing keys by the migration's volatile default.
     */
    publicId: uuid('public_id').notNull().unique().defaultRandom(),
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
  (t) => [
    index('license_keys_owner_idx').on(t.ownerId, t.id),
    // The store-report rule "the store holds a license of ours" looks keys up by each domain (modules/credits), and
    // the staff customer search by the start of one (issue 12, ADR 027): text_pattern_ops serves both = and LIKE 'x%'
    // whatever the database's collation.
    index('license_keys_main_url_pattern_idx').on(t.mainUrl.op('text_pattern_ops')),
    index('license_keys_myshopify_pattern_idx').on(t.myshopify.op('text_pattern_ops')),
    index('license_keys_secondary_url_pattern_idx').on(t.secondaryUrl.op('text_pattern_ops')),
    index('license_keys_linked_app_store_pattern_idx').on(t.linkedAppStore.op('text_pattern_ops')),
  ],
);

/** Every change of a key's tier, with why (modules/keys): the audit trail. */
export const licenseKeyTierChanges = pgTable(
  'license_key_tier_changes',
  {
    id: serial('id').primaryKey(),
    licenseKeyId: integer('license_key_id')
      .notNull()
      .references(() => licenseKeys.id, { onDelete: 'cascade' }),
    fromTier: tierEnum('from_tier').notNull(),
    toTier: tierEnum('to_tier').notNull(),
    /** 'purchase', 'token' or 'refund'. */
    reason: text('reason').notNull(),
    /** What caused it: 'order:12', 'token:7'. */
    reference: text('reference').notNull(),
    actorUserId: integer('actor_user_id').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (t) => [index('license_key_tier_changes_key_idx').on(t.licenseKeyId, t.id)],
);
