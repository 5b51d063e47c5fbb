import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'shared',
          root: './packages/shared',
          include: ['src/**/*.test.ts'],
          environment: 'node',
        },
      },
      {
        test: {
          name: 'server',
          root: './apps/server',
          include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
          environment: 'node',
          setupFiles: ['./test/setup.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
          pool: 'forks',
          isolate: false,
          // A PostgreSQL run shares one database: run its files one after another.
          fileParallelism: !process.env.TEST_DATABASE_URL,
        },
      },
      './apps/web/vite.config.ts',
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
