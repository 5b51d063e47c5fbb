/** modules/theme-file-updates: theme-file update runs. */
import { sql } from 'drizzle-orm';
import {
  boolean,
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
import { users } from './auth';
import { createdAt, tierEnum } from './columns';
import { licenseKeys } from './keys';
import { releases } from './releases';

export const themeFileUpdateRunStatusEnum = pgEnum('theme_update_run_status', [
  'running',
  'succeeded',
  'failed',
  'cancelled',
]);
/** Where a run in progress is (ADR 041): waiting for a worker, then the job's phases. */
export const themeFileUpdatePhaseEnum = pgEnum('theme_update_phase', [
  'queued',
  'upload',
  'detect',
  'merge',
  'check',
  'write',
]);

/**
 * One theme-file update or update: who ran it, which keys, the versions, the report and the stored output (kept
 * 7 days). At most one run in progress per target key, per source key and per store (partial unique indexes).
 */
export const themeFileUpdateRuns = pgTable(
  'theme_update_runs',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    sourceKeyId: integer('source_key_id')
      .notNull()
      .references(() => licenseKeys.id, { onDelete: 'cascade' }),
    targetKeyId: integer('target_key_id')
      .notNull()
      .references(() => licenseKeys.id, { onDelete: 'cascade' }),
    /** The license key texts at the time of the run (what the report shows). */
    sourceApiKey: text('source_api_key').notNull(),
    targetApiKey: text('target_api_key').notNull(),
    sourceEdition: tierEnum('source_edition').notNull(),
    targetEdition: tierEnum('target_edition').notNull(),
    /** The version the merchant's export says it is; null until the engine read it. */
    sourceVersion: text('source_version'),
    targetVersion: text('target_version').notNull(),
    targetReleaseId: integer('target_release_id').references(() => releases.id, { onDelete: 'set null' }),
    /** The store (myshopify domain, lower case) the source key was connected to, when it was. */
    store: text('store'),
    moveConnection: boolean('move_connection').notNull().default(false),
    connectionMoved: boolean('connection_moved').notNull().default(false),
    status: themeFileUpdateRunStatusEnum('status').notNull().default('running'),
    report: jsonb('report').$type<unknown>(),
    reportHtmlKey: text('report_html_key'),
    /** The merchant's copies of files they edited (the target's version is in the output), when there are any. */
    reviewKey: text('review_key'),
    outputKey: text('output_key'),
    errorCode: text('error_code'),
    /** Why it failed, in words for the merchant (the refusal's message); null for an internal error. */
    errorMessage: text('error_message'),
    /** The job that runs it (modules/jobs, ADR 041); null for runs made before runs were jobs. */
    jobId: integer('job_id'),
    /** The uploaded export while the run needs it (deleted when it ends). */
    uploadKey: text('upload_key'),
    phase: themeFileUpdatePhaseEnum('phase').notNull().default('queued'),
    progressDone: integer('progress_done').notNull().default(0),
    progressTotal: integer('progress_total').notNull().default(0),
    /** The store the customer agreed would lose its license (the target key's, when connected elsewhere). */
    consentStore: text('consent_store'),
    /** When the expiry sweep deleted the stored files (output, report, review). */
    filesDeletedAt: timestamp('files_deleted_at', { withTimezone: true }),
    createdAt: createdAt(),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    index('theme_update_runs_user_idx').on(t.userId, t.id),
    index('theme_update_runs_expires_idx')
      .on(t.expiresAt)
      .where(sql`${t.filesDeletedAt} is null`),
    uniqueIndex('theme_update_runs_running_target')
      .on(t.targetKeyId)
      .where(sql`${t.status} = 'running'`),
    uniqueIndex('theme_update_runs_running_source')
      .on(t.sourceKeyId)
      .where(sql`${t.status} = 'running'`),
    uniqueIndex('theme_update_runs_running_store')
      .on(t.store)
      .where(sql`${t.status} = 'running' and ${t.store} is not null`),
    check(
      'theme_update_runs_succeeded_has_output',
      sql`${t.status} <> 'succeeded' or (${t.outputKey} is not null and ${t.report} is not null)`,
    ),
    check('theme_update_runs_moved_only_if_asked', sql`not ${t.connectionMoved} or ${t.moveConnection}`),
  ],
);
