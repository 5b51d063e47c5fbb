import fs from 'node:fs';
import { test as base, expect, type APIRequestContext, type Page } from '@playwright/test';
import { startPortal, TEMPLATE_DIR_VARIABLE, type PortalServer } from './server';

/**
 * Writing a browser test (ADR 040):
 * - Import `test` and `expect` from here. Each Playwright worker runs its own portal (the built server, demo seed,
 *   its own database: the `portal` fixture), and the tests run in parallel (`fullyParallel`): a test must not rely
 *   on another test having run before it, nor on running alone on a seeded account. Tests that change data make
 *   their own customer (`createCustomer`) and keys (`mintKeys`).
 * - Sign in with `await login(DEMO)` (any account): a session from the API put into the browser's storage, then the
 *   keys dashboard opened. Or `useSession(page, token)` with a token you hold, then `page.goto(…)`. The sign-in form
 *   itself is covered by sign-in.spec.ts; use it in a test only when the form is what it checks.
 * - One test per flow a person goes through; status codes, headers and API details belong in the server's
 *   integration tests (apps/server/test).
 */
export const DEMO = { email: 'demo@example.com', password: 'demo-password' };
export const TEAM = { email: 'team@example.com', password: 'team-password' };
export const STAFF = { email: 'staff@example.com', password: 'staff-password' };

/** Where the web app keeps the session token (apps/web/src/lib/session-token.ts). */
const SESSION_KEY = 'keyport.session';

interface Fixtures {
  /** Console errors a test expects (e.g. a 401 it provokes on purpose); anything else fails the test. */
  allowConsoleErrors: (pattern: RegExp) => void;
  /** Signs in as `account` (through the API) and opens the keys dashboard. */
  login: (account: { email: string; password: string }) => Promise<void>;
}

interface WorkerFixtures {
  /** This worker's portal: started once per worker, stopped when the worker ends. */
  portal: PortalServer;
}

export const test = base.extend<Fixtures & { consoleGuard: void }, WorkerFixtures>({
  portal: [
    async ({}, use) => {
      const portal = await startPortal({ template: process.env[TEMPLATE_DIR_VARIABLE] });
      // For code that reads them outside a fixture (serverLog()).
      process.env.E2E_BASE_URL = portal.url;
      process.env.E2E_SERVER_LOG = portal.logFile;
      await use(portal);
      await portal.stop();
    },
    { scope: 'worker', timeout: 120_000 },
  ],
  baseURL: async ({ portal }, use) => {
    await use(portal.url);
  },
  consoleGuard: [
    async ({ page }, use) => {
      const errors: string[] = [];
      page.on('console', (message) => {
        if (message.type() === 'error') errors.push(message.text());
      });
      page.on('pageerror', (error) => errors.push(`page error: ${error.message}`));
      await use();
      const allowed = (page as Page & { __allowed?: RegExp[] }).__allowed ?? [];
      const unexpected = errors.filter((text) => !allowed.some((pattern) => pattern.test(text)));
      expect(unexpected, 'unexpected console errors').toEqual([]);
    },
    { auto: true },
  ],
  allowConsoleErrors: async ({ page }, use) => {
    await use((pattern) => {
      const tagged = page as Page & { __allowed?: RegExp[] };
      tagged.__allowed = [...(tagged.__allowed ?? []), pattern];
    });
  },
  login: async ({ page, request, baseURL }, use) => {
    await use(async (account) => {
      await useSession(page, await apiLogin(request, baseURL!, account));
      await page.goto('/customer/my-keys');
      await expect(page).toHaveURL(/\/customer\/my-keys/);
    });
  },
});

export { expect };

/** Creates a fresh customer through the API (so tests that change data never disturb each other). */
export async function createCustomer(request: APIRequestContext, baseURL: string, prefix: string) {
  const email = `${prefix}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.com`;
  const password = 'e2e-password-123';
  const response = await request.post(`${baseURL}/auth/signup`, { data: { email, password, name: prefix } });
  expect(response.status()).toBe(201);
  const body = (await response.json()) as { token: string };
  return { email, password, token: body.token };
}

/** Signs in through the API and returns the session token. */
export async function apiLogin(
  request: APIRequestContext,
  baseURL: string,
  account: { email: string; password: string },
) {
  const response = await request.post(`${baseURL}/auth/login`, { data: account });
  expect(response.status()).toBe(200);
  return ((await response.json()) as { token: string }).token;
}

/** Mints fresh unclaimed keys as staff (so each test has keys nobody else touches). */
export async function mintKeys(
  request: APIRequestContext,
  baseURL: string,
  tier: 'LITE' | 'REGULAR' | 'PRO',
  count: number,
) {
  const token = await apiLogin(request, baseURL, STAFF);
  const response = await request.post(`${baseURL}/staff/keys`, {
    headers: { authorization: `Token ${token}` },
    data: { tier, count, reason: 'e2e keys' },
  });
  expect(response.status()).toBe(201);
  return ((await response.json()) as { keys: string[] }).keys;
}

/**
 * Puts a session token in the browser's storage for the portal's origin, as signing in would (the other keys stored
 * there stay). Takes effect on the next page the test opens.
 */
export async function useSession(page: Page, token: string) {
  const context = page.context();
  const origin = new URL(process.env.E2E_BASE_URL!).origin;
  const state = await context.storageState();
  const others = state.origins.filter((entry) => entry.origin !== origin);
  const here = state.origins.find((entry) => entry.origin === origin)?.localStorage ?? [];
  await context.setStorageState({
    cookies: state.cookies,
    origins: [
      ...others,
      {
        origin,
        localStorage: [...here.filter((item) => item.name !== SESSION_KEY), { name: SESSION_KEY, value: token }],
      },
    ],
  });
}

/** This worker's server log so far (written as it comes): the sandbox email adapter logs every email there. */
export function serverLog(): string {
  const file = process.env.E2E_SERVER_LOG;
  if (!file)
    throw new Error(
      'E2E_SERVER_LOG is not set: use the `test` of e2e/support/fixtures.ts (its portal fixture sets it)',
    );
  return fs.readFileSync(file, 'utf8');
}
