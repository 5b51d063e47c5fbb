import os from 'node:os';
import { defineConfig, type TestProjectInlineConfiguration } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The server's integration suite as a project on one database (ADR 040). Every worker gets its own copy of a template
 * migrated once by test/global-setup.ts, so files run in parallel: an in-memory PGlite, or its own PostgreSQL database
 * when `TEST_DATABASE_URL` is set.
 */
function serverProject(name: string, database: 'pglite' | 'postgres'): TestProjectInlineConfiguration {
  return {
    test: {
      name,
      root: './apps/server',
      include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
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

const postgres = Boolean(process.env.TEST_DATABASE_URL);
/**
 * `server` runs on PostgreSQL when TEST_DATABASE_URL is set, else on PGlite. TEST_BOTH_DATABASES=1 with
 * TEST_DATABASE_URL adds `server-pglite`: both databases in one run, their files sharing the workers (.ci/run).
 */
const servers = [serverProject('server', postgres ? 'postgres' : 'pglite')];
if (postgres && process.env.TEST_BOTH_DATABASES === '1') servers.push(serverProject('server-pglite', 'pglite'));

/**
 * The slowest files first (vitest's own order: recorded durations, else size), grouped by project in the order the
 * projects are listed: a server worker then goes from one server file to the next in the same process (an
 * interleaved web file would end it, and the next server file would pay for a new process and database).
 */
class ProjectsInOrder extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const rank = (file: TestSpecification) => PROJECT_ORDER.indexOf(file.project.name);
    return sorted.sort((a, b) => rank(a) - rank(b));
  }
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
