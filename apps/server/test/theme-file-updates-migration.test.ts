/**
 * Migration 0019 (issue 21, ADR 044): `theme_upgrade_runs` becomes `theme_update_runs`, with its sequence, keys,
 * checks, indexes and enum types; the jobs of the run and the clean-up move to the new job kinds and the clean-up's
 * schedule to its new name. Run on a database migrated up to 0017 with a finished and a running run, their jobs
 * (queued, dead, done), another module's job and schedule: every row stays, under the new names only. On the
 * project's database: PGlite, or a database of its own on the PostgreSQL server (PostgreSQL before 18 has no named
 * NOT NULL constraints; PGlite has).
 */
import fs from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import { drizzle as drizzlePostgres } from 'drizzle-orm/node-postgres';
import { migrate as migratePostgres } from 'drizzle-orm/node-postgres/migrator';
import { drizzle } from 'drizzle-orm/pglite';
import { migrate } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { migrationsFolder } from '../src/db/client';
import { THEME_FILE_UPDATE_SWEEP_SCHEDULE } from '../src/modules/theme-file-updates/theme-file-update.job';
import {
  THEME_FILE_UPDATE_JOB,
  THEME_FILE_UPDATE_SWEEP_JOB,
} from '../src/modules/theme-file-updates/theme-file-updates.service';
import { migrationsBefore } from './helpers/migrations';
import { databaseUrlFor, workerDatabasePrefix } from './helpers/test-database';

const MIGRATION = '0019_theme-file-updates';
const NEXT_SWEEP = '2026-11-26T18:00:00.000Z';
let copy: string;

/** A fresh database of the project's kind: its queries, its migration to a folder's last entry, its end. */
interface Fresh {
  query<T>(query: string, params?: unknown[]): Promise<T[]>;
  migrate(folder: string): Promise<void>;
  close(): Promise<void>;
}

async function freshPglite(): Promise<Fresh> {
  const client = new PGlite();
  return {
    query: async <T>(query: string, params: unknown[] = []) => (await client.query<T>(query, params)).rows,
    migrate: (folder) => migrate(drizzle(client), { migrationsFolder: folder }),
    close: () => client.close(),
  };
}

/** On the PostgreSQL server, under the worker databases' prefix (the global setup drops what a run leaves). */
async function freshPostgres(url: string): Promise<Fresh> {
  const name = `${workerDatabasePrefix(url)}m0019_${process.pid}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`drop database if exists "${name}" with (force)`);
  await admin.query(`create database "${name}"`);
  // One client, not a pool: its end() resolves once the connection is closed, so the drop below never ends a
  // connection still closing (a pool's ending client then raised an unhandled 57P01 in the full suite).
  const client = new pg.Client({ connectionString: databaseUrlFor(url, name) });
  await client.connect();
  return {
    query: async <T>(query: string, params: unknown[] = []) => (await client.query(query, params)).rows as T[],
    migrate: (folder) => migratePostgres(drizzlePostgres(client), { migrationsFolder: folder }),
    close: async () => {
      await client.end();
      await admin.query(`drop database if exists "${name}" with (force)`);
      await admin.end();
    },
  };
}

let database: Fresh;
const rows = <T>(query: string, params: unknown[] = []) => database.query<T>(query, params);

/** A run of key 10 (LITE) onto key 11 (REGULAR) by user 1. */
const insertRun = (table: string, id: number | null, status: string, outputKey: string | null) =>
  rows(
    `insert into ${table} (${id === null ? '' : 'id, '}user_id, source_key_id, target_key_id, source_api_key,
       target_api_key, source_edition, target_edition, target_version, status, report, output_key, expires_at)
     values (${id === null ? '' : `${id}, `}1, 10, 11, 'KEY-LITE', 'KEY-REG', 'LITE', 'REGULAR', '2.0.0', $1,
       $2, $3, now() + interval '7 days')`,
    [status, outputKey === null ? null : '{"kept":[]}', outputKey],
  );

beforeAll(async () => {
  const provided = inject('testDatabase');
  database = provided.kind === 'postgres' ? await freshPostgres(provided.url) : await freshPglite();
  copy = migrationsBefore(MIGRATION);
  await database.migrate(copy);
  await rows(`insert into users (id, email, name, password_hash) values (1, 'demo@example.com', 'Demo', 'x')`);
  await rows(`insert into license_keys (id, api_key, tier, owner_id) values
    (10, 'KEY-LITE', 'LITE', 1), (11, 'KEY-REG', 'REGULAR', 1)`);
  await insertRun('theme_upgrade_runs', 1, 'succeeded', 'theme-upgrades/1-a.zip');
  await insertRun('theme_upgrade_runs', 2, 'running', null);
  await rows(`select setval('theme_upgrade_runs_id_seq', 2)`);
  await rows(`insert into jobs (kind, payload, status, run_at, dedupe_key) values
    ('theme-upgrades.run', '{"runId": 2}', 'queued', now(), null),
    ('theme-upgrades.run', '{"runId": 1}', 'done', now(), null),
    ('theme-upgrades.sweep', '{}', 'dead', now(), 'theme-upgrades-sweep:1'),
    ('email.send', '{}', 'queued', now(), null)`);
  await rows(`insert into job_schedules (name, next_run_at) values
    ('theme-upgrades-sweep', '${NEXT_SWEEP}'), ('sessions-sweep', '${NEXT_SWEEP}')`);
  await database.migrate(migrationsFolder());
});

afterAll(async () => {
  await database?.close();
  if (copy) fs.rmSync(copy, { recursive: true, force: true });
});

describe(`migration ${MIGRATION}`, () => {
  it('keeps every run and its id under the new table name; the sequence goes on', async () => {
    expect(await rows(`select id, status, output_key from theme_update_runs order by id`)).toEqual([
      { id: 1, status: 'succeeded', output_key: 'theme-upgrades/1-a.zip' },
      { id: 2, status: 'running', output_key: null },
    ]);
    expect(await rows(`select table_name from information_schema.tables where table_name like 'theme_%_runs'`)).toEqual(
      [{ table_name: 'theme_update_runs' }],
    );
    expect(await rows(`select nextval('theme_update_runs_id_seq')::int as next`)).toEqual([{ next: 3 }]);
  });

  it('leaves no object under the old name: indexes, keys, checks, sequence and enum types are renamed', async () => {
    const names = await rows<{ name: string }>(
      `select relname as name from pg_class where relname like 'theme_%'
       union all select conname from pg_constraint where conname like 'theme_%'
       union all select typname from pg_type where typname like 'theme_%' or typname like '\\_theme_%'
       order by name`,
    );
    expect(names.filter(({ name }) => name.includes('upgrade'))).toEqual([]);
    expect(names.map(({ name }) => name)).toEqual(
      expect.arrayContaining([
        'theme_update_phase',
        'theme_update_run_status',
        'theme_update_runs_expires_idx',
        'theme_update_runs_id_seq',
        'theme_update_runs_moved_only_if_asked',
        'theme_update_runs_pkey',
        'theme_update_runs_running_source',
        'theme_update_runs_running_store',
        'theme_update_runs_running_target',
        'theme_update_runs_succeeded_has_output',
        'theme_update_runs_source_key_id_license_keys_id_fk',
        'theme_update_runs_target_key_id_license_keys_id_fk',
        'theme_update_runs_target_release_id_releases_id_fk',
        'theme_update_runs_user_id_users_id_fk',
      ]),
    );
  });

  it('still refuses a second running run of a key and a succeeded run without output', async () => {
    await expect(insertRun('theme_update_runs', null, 'running', null)).rejects.toThrow(
      /theme_update_runs_running_target/,
    );
    await expect(insertRun('theme_update_runs', null, 'succeeded', null)).rejects.toThrow(
      /theme_update_runs_succeeded_has_output/,
    );
  });

  it("moves the runs' and the clean-up's jobs to the kinds the server registers, and the schedule to its name", async () => {
    expect(await rows(`select kind, status, payload from jobs order by id`)).toEqual([
      { kind: THEME_FILE_UPDATE_JOB, status: 'queued', payload: { runId: 2 } },
      { kind: THEME_FILE_UPDATE_JOB, status: 'done', payload: { runId: 1 } },
      { kind: THEME_FILE_UPDATE_SWEEP_JOB, status: 'dead', payload: {} },
      { kind: 'email.send', status: 'queued', payload: {} },
    ]);
    const schedules = await rows<{ name: string; next_run_at: Date }>(
      `select name, next_run_at from job_schedules order by name`,
    );
    expect(schedules.map(({ name, next_run_at }) => [name, next_run_at.toISOString()])).toEqual([
      ['sessions-sweep', NEXT_SWEEP],
      [THEME_FILE_UPDATE_SWEEP_SCHEDULE, NEXT_SWEEP],
    ]);
  });
});
