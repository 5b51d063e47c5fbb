import fs from 'node:fs';
import path from 'node:path';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';
import { precompress } from './precompress.ts';

/**
 * Test files that replace a module (`vi.mock`) run each in a fresh module graph (project `web-mocks`); the others
 * share one per worker (`isolate: false`: jsdom and React loaded once, not once per file; ADR 046). A module mocked in
 * one file would otherwise be the copy another file imports.
 */
const srcDir = path.join(import.meta.dirname, 'src');
export const MOCKING_TEST_FILES = fs
  .readdirSync(srcDir, { recursive: true, encoding: 'utf8' })
  .filter((file) => /\.test\.tsx?$/.test(file))
  .filter((file) => fs.readFileSync(path.join(srcDir, file), 'utf8').includes('vi.mock('))
  .map((file) => `src/${file.split(path.sep).join('/')}`);

const apiTarget = process.env.KEYPORT_API ?? 'http://127.0.0.1:3000';
const apiPaths = [
  '/auth',
  '/keys',
  '/staff',
  '/api',
  '/stripe',
  '/credits',
  '/health',
  '/config',
  '/.well-known',
  '/upgrades',
  '/countries',
  '/sandbox',
];

export default defineConfig({
  plugins: [react(), tailwindcss(), precompress()],
  server: {
    port: 5173,
    proxy: Object.fromEntries(
      apiPaths.map((path) => [
        path,
        {
          target: apiTarget,
          changeOrigin: false,
          // The staff console's pages share /staff with the API (issue 12): a page navigation gets the app.
          bypass: (request: { headers: { accept?: string } }) =>
            path === '/staff' && request.headers.accept?.includes('text/html') ? '/index.html' : undefined,
        },
      ]),
    ),
  },
  build: {
    target: 'es2022',
    sourcemap: true,
    // Rolldown's automatic splitting cuts what the dashboard loads first into a dozen small chunks that each compress
    // alone (about 4 KiB more in total). The libraries every page needs go in one chunk instead; what only some pages
    // use (the menus and their positioning code, the domain rules) stays split. See docs/performance.md.
    rolldownOptions: {
      output: {
        advancedChunks: {
          groups: [
            {
              name: 'vendor',
              test: /node_modules[\\/](react|react-dom|scheduler|react-router|@tanstack|sonner|clsx|tailwind-merge|zod|@radix-ui[\\/]react-(primitive|slot|compose-refs|context|presence|portal|dialog|focus-scope|focus-guards|dismissable-layer|id|use-[a-z-]+|visually-hidden))[\\/]/,
            },
          ],
        },
      },
    },
  },
  test: {
    name: 'web',
    root: import.meta.dirname,
    environment: 'jsdom',
    include: ['src/**/*.test.{ts,tsx}', 'precompress.test.ts'],
    exclude: MOCKING_TEST_FILES,
    setupFiles: ['./src/test-setup.ts'],
    isolate: false,
  },
});
