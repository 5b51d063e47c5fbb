import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { defineConfig, type TestProjectInlineConfiguration } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The server's integration suite as a project on one database (ADR 040). Every worker gets its own copy of a template
 * migrated once by test/global-setup.ts, so files run in parallel: an in-memory PGlite, or its own PostgreSQL database
 * when `TEST_DATABASE_URL` is set.
 */
function serverProject(
  name: string,
  database: 'pglite' | 'postgres',
  include = ['src/**/*.test.ts', 'test/**/*.test.ts'],
): TestProjectInlineConfiguration {
  return {
    test: {
      name,
      root: './apps/server',
      include,
      environment: 'node',
      globalSetup: ['./test/global-setup.ts'],
      setupFiles: ['./test/setup.ts'],
      provide: { testDatabaseKind: database },
      testTimeout: 30_000,
      hookTimeout: 60_000,
      pool: 'forks',
      // A worker process keeps its database and loaded modules from one file to the next (test-app.ts resets the
      // tables for every test app).
      isolate: false,
    },
  };
}

/**
 * The server's test files that reach the test database: they import the test app, the test database or the migration
 * helpers (test/helpers), or read the database's address themselves. With both databases (below), only these run a
 * second time on PGlite; a file that never opens the database would do the same work twice. A file that does reach
 * it but tests something the database cannot change may say `@one-database: <why>` in its text to run once.
 */
const serverRoot = path.join(import.meta.dirname, 'apps/server');
const USES_DATABASE = /helpers\/(test-app|test-database|migrations)|testDatabase|TEST_DATABASE_URL/;
const serverFilesOnBothDatabases = ['src', 'test']
  .flatMap((dir) =>
    fs
      .readdirSync(path.join(serverRoot, dir), { recursive: true, encoding: 'utf8' })
      .map((file) => `${dir}/${file.split(path.sep).join('/')}`),
  )
  .filter((file) => file.endsWith('.test.ts'))
  .filter((file) => {
    const text = fs.readFileSync(path.join(serverRoot, file), 'utf8');
    return USES_DATABASE.test(text) && !text.includes('@one-database:');
  });

const postgres = Boolean(process.env.TEST_DATABASE_URL);
/**
 * `server` runs on PostgreSQL when TEST_DATABASE_URL is set, else on PGlite. TEST_BOTH_DATABASES=1 with
 * TEST_DATABASE_URL adds `server-pglite`: both databases in one run, their files sharing the workers (.ci/run).
 */
const servers = [serverProject('server', postgres ? 'postgres' : 'pglite')];
if (postgres && process.env.TEST_BOTH_DATABASES === '1') {
  servers.push(serverProject('server-pglite', 'pglite', serverFilesOnBothDatabases));
}

/**
 * The slowest files first (vitest's own order: recorded durations, else size), grouped by project in the order the
 * projects are listed: a server worker then goes from one server file to the next in the same process (an
 * interleaved web file would end it, and the next server file would pay for a new process and database).
 */
class ProjectsInOrder extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const rank = (file: TestSpecification) => PROJECT_ORDER.indexOf(file.project.name);
    const first = (file: TestSpecification) => (runsFirst(file.moduleId) ? 0 : 1);
    return sorted.sort((a, b) => rank(a) - rank(b) || first(a) - first(b));
  }
}

/**
 * A file that says `@run-first: <why>` starts before the others of its project. Vitest orders by the durations it
 * recorded, which a fresh clone (CI) does not have: it then goes by file size, and a long file that is not among the
 * largest (the Dawn theme-check file: 45 CPU-s) started late and was the suite's last minute.
 */
const firstFiles = new Map<string, boolean>();
function runsFirst(file: string): boolean {
  let first = firstFiles.get(file);
  if (first === undefined) {
    first = fs.readFileSync(file, 'utf8').includes('@run-first:');
    firstFiles.set(file, first);
  }
  return first;
}
const PROJECT_ORDER = [...servers.map((project) => project.test!.name as string), 'web', 'web-mocks', 'shared'];

export default defineConfig({
  test: {
    // Two workers on a 2-core machine (vitest's default leaves one core idle); VITEST_MAX_WORKERS overrides.
    maxWorkers: Number(process.env.VITEST_MAX_WORKERS) || Math.max(2, os.availableParallelism()),
    sequence: { sequencer: ProjectsInOrder },
    projects: [
      ...servers,
      {
        test: {
          name: 'shared',
          root: './packages/shared',
          include: ['src/**/*.test.ts'],
          environment: 'node',
        },
      },
      './apps/web/vite.config.ts',
      './apps/web/vitest.mocks.config.ts',
      {
        // The repository's own tooling: the import rules `npm run lint` applies (ADR 043).
        test: {
          name: 'tooling',
          root: '.',
          include: ['scripts/**/*.test.ts'],
          environment: 'node',
          testTimeout: 60_000,
        },
      },
    ],
  },
});
