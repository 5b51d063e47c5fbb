import type { APIRequestContext } from '@playwright/test';
import { expectAccessible } from '../support/accessibility';
import { apiLogin, DEMO, expect, STAFF, test } from '../support/fixtures';

/** The feed as it was before this spec: put back afterwards, so later specs see the seeded updates. */
let originalFeed: unknown[] = [];

async function staffCall(request: APIRequestContext, baseURL: string, method: 'GET' | 'PUT', data?: object) {
  const token = await apiLogin(request, baseURL, STAFF);
  return request.fetch(`${baseURL}/staff/homepage-settings${method === 'GET' ? '?preview=false' : ''}`, {
    method,
    headers: { authorization: `Token ${token}` },
    data,
  });
}

// The shared test machines are slow at times: these tests walk several pages and two browsers.
test.describe.configure({ timeout: 90_000 });

test.beforeAll(async ({ request, baseURL }) => {
  originalFeed = ((await (await staffCall(request, baseURL!, 'GET')).json()) as { updates: unknown[] }).updates;
});

test.afterAll(async ({ request, baseURL }) => {
  const restored = await staffCall(request, baseURL!, 'PUT', {
    updates: originalFeed,
    publish: true,
    reason: 'e2e: put the seeded feed back',
  });
  expect(restored.status()).toBe(200);
});

test('staff publish a feed item from the console; a customer sees it; the audit log shows it with its reason', async ({
  page,
  login,
  browser,
  baseURL,
}) => {
  const title = `Console news ${Date.now()}`;
  await login(STAFF);
  await page.getByRole('button', { name: 'User menu' }).click();
  await page.getByRole('menuitem', { name: 'Staff console' }).click();
  await expect(page).toHaveURL(/\/staff$/);
  const nav = page.getByRole('navigation', { name: 'Staff console' });
  await expect(nav.getByRole('link')).toHaveText([
    'Audit log',
    'Updates feed',
    'Customers',
    'Orders',
    'Upgrade tokens',
    'Catalogue',
    'Releases',
    'Store reports',
    'Sightings',
    'VAT rates',
    'Jobs',
  ]);

  await nav.getByRole('link', { name: 'Updates feed' }).click();
  await expect(page.getByRole('heading', { name: 'Updates feed', level: 1 })).toBeVisible();
  await page.getByRole('button', { name: 'Add an update' }).click();
  const first = page.getByRole('group', { name: 'Update 1' });
  await first.getByLabel('Title').fill(title);
  await first.getByLabel('Text').fill('Published from the staff console.');
  await first.getByLabel('Date').fill('2026-11-23');

  await page.getByRole('button', { name: 'Publish', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Publish the updates feed?' });
  await expect(dialog).toContainText("Every customer's dashboard shows these");
  await dialog.getByRole('button', { name: 'Publish now' }).click();
  await expect(dialog.getByRole('alert')).toHaveText('Give a reason (at least 3 characters)');
  await dialog.getByLabel('Reason').fill('Announce the console');
  await dialog.getByRole('button', { name: 'Publish now' }).click();
  await expect(dialog).toBeHidden();
  const preview = page.getByRole('complementary', { name: 'Preview of the saved draft' });
  await expect(preview.getByRole('heading', { name: title })).toBeVisible();
  await expect(preview).toContainText('The same as the published feed.');

  // A customer, in a browser of their own, sees it on the dashboard.
  const customerContext = await browser.newContext({ baseURL });
  const customerPage = await customerContext.newPage();
  await customerPage.goto('/login');
  await customerPage.getByLabel('Email').fill(DEMO.email);
  await customerPage.getByLabel('Password').fill(DEMO.password);
  await customerPage.getByRole('button', { name: 'Sign in' }).click();
  await expect(customerPage.getByTestId('updates-list')).toContainText(title, { timeout: 20_000 });
  await customerContext.close();

  // The audit log shows the publish, with who and why; the action filter lives in the URL.
  await nav.getByRole('link', { name: 'Audit log' }).click();
  await page.getByLabel('Action').fill('homepage.published');
  await page.getByRole('button', { name: 'Apply' }).click();
  await expect(page).toHaveURL(/action=homepage\.published/);
  const row = page.getByRole('row').filter({ hasText: 'Announce the console' });
  await expect(row).toContainText('staff@example.com');
  await expect(row).toContainText('homepage settings #1');
  await page.reload();
  await expect(page.getByRole('row').filter({ hasText: 'Announce the console' })).toBeVisible();
  await expect(page.getByLabel('Action')).toHaveValue('homepage.published');
});

test('a customer who opens /staff gets the not-found page, and the console code is never loaded', async ({
  page,
  login,
}) => {
  await login(DEMO);
  const staffChunks: string[] = [];
  page.on('request', (request) => {
    if (/staff-console|audit-log-page|updates-page/.test(request.url())) staffChunks.push(request.url());
  });
  await page.goto('/staff/audit-log');
  await expect(page.getByRole('heading', { name: 'Page not found' })).toBeVisible();
  await page.goto('/staff');
  await expect(page.getByRole('heading', { name: 'Page not found' })).toBeVisible();
  expect(staffChunks).toEqual([]);
  await page.goto('/customer/my-keys');
  await page.getByRole('button', { name: 'User menu' }).click();
  await expect(page.getByRole('menuitem', { name: 'Settings' })).toBeVisible();
  await expect(page.getByRole('menuitem', { name: 'Staff console' })).toHaveCount(0);
});

for (const viewport of [
  { name: 'desktop', width: 1440, height: 900 },
  { name: 'phone', width: 390, height: 844 },
]) {
  test.describe(`the staff console at ${viewport.name} width`, () => {
    test.use({ viewport: { width: viewport.width, height: viewport.height } });

    test('its pages have no serious or critical accessibility violations, and screenshots', async ({
      page,
      login,
    }, testInfo) => {
      // Every page, each scanned by axe and pictured whole: slow on a shared machine.
      test.slow();
      await login(STAFF);
      await page.goto('/staff/audit-log');
      await expect(page.getByRole('row').nth(1)).toBeVisible();
      await expect(page.locator('table[aria-busy="true"]')).toHaveCount(0);
      await expectAccessible(page, testInfo, `staff-audit-log-${viewport.name}`);

      await page.goto('/staff/updates');
      await expect(page.getByRole('group', { name: 'Update 1' })).toBeVisible();
      await expectAccessible(page, testInfo, `staff-updates-${viewport.name}`);

      // The money, catalogue, releases, reports and jobs pages: each loaded (no busy table), then scanned and pictured.
      for (const [path, title] of [
        ['orders', 'Orders'],
        ['upgrade-tokens', 'Upgrade tokens'],
        ['catalogue', 'Catalogue'],
        ['releases', 'Releases'],
        ['reports', 'Store reports'],
        ['jobs', 'Jobs'],
      ] as const) {
        await page.goto(`/staff/${path}`);
        await expect(page.getByRole('heading', { name: title, level: 1 })).toBeVisible();
        await expect(page.getByRole('table').first()).toBeVisible();
        await expect(page.locator('table[aria-busy="true"]')).toHaveCount(0);
        await expectAccessible(page, testInfo, `staff-${path}-${viewport.name}`);
      }

      await page.goto('/staff');
      await expect(page.getByRole('heading', { name: 'Staff console', level: 1 })).toBeVisible();
      await expectAccessible(page, testInfo, `staff-home-${viewport.name}`);

      // Keyboard: the nav's links are in the tab order, and Enter follows one.
      const nav = page.getByRole('navigation', { name: 'Staff console' });
      await nav.getByRole('link', { name: 'Audit log' }).focus();
      await page.keyboard.press('Tab');
      await expect(nav.getByRole('link', { name: 'Updates feed' })).toBeFocused();
      await page.keyboard.press('Enter');
      await expect(page).toHaveURL(/\/staff\/updates$/);
    });
  });
}
