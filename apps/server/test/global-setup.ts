/**
 * Runs once per server test project, before any worker starts: migrates one template database that every worker
 * copies (a database per worker, so test files run in parallel).
 * - PGlite: an in-memory database, migrated, dumped to a tar file; each worker loads the dump (about a second of CPU,
 *   where creating a PGlite from nothing and migrating it takes about six).
 * - PostgreSQL (TEST_DATABASE_URL): a `<name>_template` database beside the one named, migrated; each worker process
 *   creates `<name>_p<pid>` from it with `CREATE DATABASE … TEMPLATE`. Teardown drops them all.
 * The database named by TEST_DATABASE_URL itself only serves to connect: tests never write to it.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { drizzle } from 'drizzle-orm/pglite';
import { migrate } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { migrationsFolder, openDatabase } from '../src/db/client';
import { databaseUrlFor, postgresTemplateName, workerDatabasePrefix, type TestDatabase } from './helpers/test-database';

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const kind = project.config.provide.testDatabaseKind;
  if (kind === 'postgres') {
    const url = process.env.TEST_DATABASE_URL;
    if (!url) throw new Error(`The ${project.name} project runs on PostgreSQL: set TEST_DATABASE_URL`);
    return setUpPostgres(project, url);
  }
  return setUpPglite(project);
}

async function setUpPglite(project: TestProject) {
  const client = new PGlite();
  try {
    await migrate(drizzle(client), { migrationsFolder: migrationsFolder() });
    const dump = await client.dumpDataDir('none');
    const file = path.join(os.tmpdir(), `keyport-test-template-${process.pid}-${project.name}.tar`);
    fs.writeFileSync(file, Buffer.from(await dump.arrayBuffer()));
    const database: TestDatabase = { kind: 'pglite', template: file };
    project.provide('testDatabase', database);
    return async () => fs.rmSync(file, { force: true });
  } finally {
    await client.close();
  }
}

async function setUpPostgres(project: TestProject, url: string) {
  const template = postgresTemplateName(url);
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  const dropAll = async () => {
    const { rows } = await admin.query<{ datname: string }>(
      `select datname from pg_database where datname = $1 or starts_with(datname, $2)`,
      [template, workerDatabasePrefix(url)],
    );
    for (const { datname } of rows) await admin.query(`drop database if exists "${datname}" with (force)`);
  };
  try {
    await dropAll(); // what an interrupted run left
    await admin.query(`create database "${template}"`);
    // The product's own migration path (advisory lock and all), on the template.
    const migrated = await openDatabase({ kind: 'postgres', url: databaseUrlFor(url, template) });
    await migrated.close();
  } catch (error) {
    await admin.end();
    throw error;
  }
  const database: TestDatabase = { kind: 'postgres', url, template };
  project.provide('testDatabase', database);
  return async () => {
    try {
      await dropAll();
    } finally {
      await admin.end();
    }
  };
}
