import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DataDirLockedError, openDatabase } from '../src/db/client';
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
