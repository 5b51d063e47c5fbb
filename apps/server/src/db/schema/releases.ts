/** modules/releases: theme releases, the current one per edition, downloads. */
import { bigint, index, integer, jsonb, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import type { MigrationMap } from '@keyport/shared/contracts/migration-map';
import { users } from './auth';
import { createdAt, tierEnum } from './columns';

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
    /**
     * Every file of the zip (theme-relative path) → its sha256 (hex), computed at upload (issue 10). Null for a
     * release stored before: filled in when it is first read (modules/releases).
     */
    manifest: jsonb('manifest').$type<Record<string, string>>(),
    /**
     * What this version renamed since the previous one (settings, colour schemes, sections, blocks), uploaded by staff
     * with the release and checked against its files (issue 20); theme-file updates move merchants' values by it.
     */
    migrationMap: jsonb('migration_map').$type<MigrationMap>(),
  },
  (t) => [
    uniqueIndex('releases_edition_version_unique').on(t.edition, t.version),
    index('releases_edition_idx').on(t.edition, t.id),
  ],
);

/**
 * The release customers get for an edition, chosen by staff (issue 12): at most one per edition (the primary key).
 * No row: the edition's newest version is served, as before.
 */
export const releaseCurrent = pgTable('release_current', {
  edition: tierEnum('edition').primaryKey(),
  releaseId: integer('release_id')
    .notNull()
    .references(() => releases.id, { onDelete: 'cascade' }),
  setBy: integer('set_by').references(() => users.id, { onDelete: 'set null' }),
  setAt: timestamp('set_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * One row per download that opened a release zip (issue 12): which key took which version, and the store the key was
 * connected to then. "Which stores run which version" is each key's newest row.
 */
export const releaseDownloads = pgTable(
  'release_downloads',
  {
    id: serial('id').primaryKey(),
    releaseId: integer('release_id')
      .notNull()
      .references(() => releases.id, { onDelete: 'cascade' }),
    edition: tierEnum('edition').notNull(),
    version: text('version').notNull(),
    keyId: integer('key_id').notNull(),
    userId: integer('user_id').references(() => users.id, { onDelete: 'set null' }),
    /** The key's store then: its myshopify domain, else its website, else its linked app store; null if unconnected. */
    store: text('store'),
    via: text('via', { enum: ['link', 'token', 'proxy'] }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    index('release_downloads_key_idx').on(t.keyId, t.id),
    index('release_downloads_edition_idx').on(t.edition, t.id),
  ],
);

// ——— Upgrades and payments (issue 8). Owners: docs/architecture.md. ———
