// Runs in each server test worker before each test file. A server project runs on one database kind (vitest.config.ts):
// on PostgreSQL, TEST_DATABASE_URL becomes this worker's own database (created here from the migrated template, so
// a file that connects by itself finds it); on PGlite it is unset, so PostgreSQL-only tests skip (ADR 040).
import { inject } from 'vitest';
import { closeAppsOfEarlierFiles } from './helpers/test-app';
import { createWorkerDatabase, workerDatabaseUrl } from './helpers/test-database';

// The apps an earlier file of this worker left open stop before this file touches the database (helpers/test-app.ts).
await closeAppsOfEarlierFiles();

const database = inject('testDatabase');
if (database.kind === 'postgres') {
  await createWorkerDatabase(database);
  process.env.TEST_DATABASE_URL = workerDatabaseUrl(database);
} else {
  delete process.env.TEST_DATABASE_URL;
}
