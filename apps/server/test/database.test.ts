import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { DataDirLockedError, migrationsFolder, openDatabase } from '../src/db/client';
import { users } from '../src/db/schema';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'keyport-db-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('file-backed PGlite', () => {
  it('locks its data directory, keeps data across restarts, and frees the lock on close', async () => {
    const first = await openDatabase({ kind: 'pglite', dataDir: dir });
    await first.db.insert(users).values({ email: 'kept@example.com', name: 'Kept', passwordHash: 'x' });
    await expect(openDatabase({ kind: 'pglite', dataDir: dir })).rejects.toThrow(DataDirLockedError);
    await expect(openDatabase({ kind: 'pglite', dataDir: dir })).rejects.toThrow(/in use by another Keyport process/);
    await first.close();
    expect(fs.existsSync(path.join(dir, 'keyport.lock'))).toBe(false);

    const second = await openDatabase({ kind: 'pglite', dataDir: dir });
    expect((await second.db.select().from(users)).map((u) => u.email)).toEqual(['kept@example.com']);
    await second.close();
  }, 60_000);

  it('takes over a stale lock left by a process that died', async () => {
    fs.writeFileSync(path.join(dir, 'keyport.lock'), '999999');
    const database = await openDatabase({ kind: 'pglite', dataDir: dir });
    await database.close();
  }, 60_000);
});

const postgresUrl = process.env.TEST_DATABASE_URL;

describe.skipIf(!postgresUrl)('PostgreSQL (TEST_DATABASE_URL)', () => {
  it('lets one process at a time migrate: four starting at once on an empty database all open it', async () => {
    // A scratch database beside the test database, empty, as a new deployment's is.
    const name = `keyport_migrate_${process.pid}_${Date.now()}`;
    const admin = new pg.Client({ connectionString: postgresUrl });
    await admin.connect();
    await admin.query(`create database ${name}`);
    const url = new URL(postgresUrl!);
    url.pathname = `/${name}`;
    try {
      const opened = await Promise.all(
        Array.from({ length: 4 }, () => openDatabase({ kind: 'postgres', url: url.toString() })),
      );
      const journal = JSON.parse(fs.readFileSync(path.join(migrationsFolder(), 'meta', '_journal.json'), 'utf8')) as {
        entries: unknown[];
      };
      const applied = await opened[0]!.db.execute(sql`select count(*)::int as n from drizzle.__drizzle_migrations`);
      expect((applied as unknown as { rows: { n: number }[] }).rows[0]!.n).toBe(journal.entries.length);
      await Promise.all(opened.map((database) => database.close()));
    } finally {
      await admin.query(`drop database if exists ${name}`);
      await admin.end();
    }
  }, 120_000);
});
