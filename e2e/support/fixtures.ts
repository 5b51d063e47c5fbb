import fs from 'node:fs';
import { test as base, expect, type APIRequestContext, type Page } from '@playwright/test';

export const DEMO = { email: 'demo@example.com', password: 'demo-password' };
export const TEAM = { email: 'team@example.com', password: 'team-password' };
export const STAFF = { email: 'staff@example.com', password: 'staff-password' };

interface Fixtures {
  /** Console errors a test expects (e.g. a 401 it provokes on purpose); anything else fails the test. */
  allowConsoleErrors: (pattern: RegExp) => void;
  login: (account: { email: string; password: string }) => Promise<void>;
}

export const test = base.extend<Fixtures & { consoleGuard: void }>({
  baseURL: async ({}, use) => {
    const url = process.env.E2E_BASE_URL;
    if (!url)
      throw new Error('E2E_BASE_URL is not set: run through playwright.config.ts (global setup starts the server)');
    await use(url);
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
  login: async ({ page }, use) => {
    await use(async (account) => {
      await page.goto('/login');
      await page.getByLabel('Email').fill(account.email);
      await page.getByLabel('Password').fill(account.password);
      await page.getByRole('button', { name: 'Sign in' }).click();
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

/** Puts a session token in the browser, as signing in would. */
export async function useSession(page: Page, token: string) {
  await page.goto('/login');
  await page.evaluate((value) => localStorage.setItem('keyport.session', value), token);
}

/** The server's log so far (global setup writes it as it comes): the sandbox email adapter logs every email there. */
export function serverLog(): string {
  const file = process.env.E2E_SERVER_LOG;
  if (!file)
    throw new Error('E2E_SERVER_LOG is not set: run through playwright.config.ts (global setup starts the server)');
  return fs.readFileSync(file, 'utf8');
}
