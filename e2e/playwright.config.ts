import fs from 'node:fs';
import os from 'node:os';
import { defineConfig } from '@playwright/test';

const ci = Boolean(process.env.CI);
/** Chromium's headless shell when installed (a third less CPU than the full browser, the same Blink: ADR 046). */
const chromium =
  process.env.CHROMIUM_PATH ??
  ['/usr/bin/chromium-headless-shell', '/usr/bin/chromium'].find((file) => fs.existsSync(file)) ??
  '/usr/bin/chromium';

/**
 * Browser tests (ADR 040): each worker starts the built server on a free port with its own data directory and the
 * demo seed (the `portal` fixture in support/fixtures.ts), and drives the system Chromium. Tests run in parallel: one
 * worker per core, at least two (much of a browser test is waiting); E2E_WORKERS overrides. On CI (`CI` set) a failed
 * test runs once more, with a trace; locally a failure is a failure.
 */
export default defineConfig({
  testDir: './tests',
  outputDir: './test-results',
  globalSetup: './support/global-setup.ts',
  fullyParallel: true,
  workers: Number(process.env.E2E_WORKERS) || Math.max(2, os.availableParallelism()),
  retries: ci ? 1 : 0,
  timeout: 30_000,
  expect: { timeout: 7_000 },
  reporter: [['list'], ['html', { open: 'never', outputFolder: './playwright-report' }]],
  use: {
    trace: 'on-first-retry',
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: chromium,
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
      ],
    },
  },
});
