import path from 'node:path';
import type { APIRequestContext } from '@playwright/test';
import { seriousViolations } from '../support/accessibility';
import { apiLogin, createCustomer, expect, mintKeys, STAFF, test, useSession } from '../support/fixtures';

/** Issue 12, the staff console's releases and store reports, driven as staff and seen as a customer. */
test.use({ viewport: { width: 1440, height: 900 } });

/** Screenshots for people to look at (not compared): test-results, or docs/screenshots with UPDATE_SCREENSHOTS=1. */
const screenshots = process.env.UPDATE_SCREENSHOTS
  ? path.resolve(import.meta.dirname, '../../docs/screenshots')
  : path.resolve(import.meta.dirname, '../../test-results/screenshots');

/** A customer with a key of `tier` connected to `store` (with its theme token, so the card can download). */
async function connectedCustomer(request: APIRequestContext, baseURL: string, store: string) {
  const [key] = await mintKeys(request, baseURL, 'LITE', 1);
  const customer = await createCustomer(request, baseURL, 'staff-releases');
  const headers = { authorization: `Token ${customer.token}` };
  expect((await request.post(`${baseURL}/keys/`, { headers, data: { key } })).status()).toBe(201);
  expect((await request.put(`${baseURL}/keys/`, { headers, data: { key, myshopify: store } })).status()).toBe(200);
  return { ...customer, key: key! };
}

/** The release zip a customer gets now, fetched through its signed link (a real theme zip to upload again). */
async function currentZip(request: APIRequestContext, baseURL: string, token: string, key: string) {
  const info = await request.post(`${baseURL}/staff/get-releases`, {
    headers: { authorization: `Token ${token}` },
    data: { key },
  });
  const { result } = (await info.json()) as { result: { version: string; download_link: string } };
  const zip = await request.get(result.download_link);
  expect(zip.status()).toBe(200);
  return { version: result.version, bytes: await zip.body() };
}

test('staff upload a release with progress, a customer downloads it, then staff make the earlier one current', async ({
  page,
  request,
  baseURL,
  login,
  allowConsoleErrors,
  browser,
}) => {
  test.slow();
  // The refused upload answers 400 on purpose.
  allowConsoleErrors(/status of 400/);
  const run = Math.random().toString(36).slice(2, 7);
  const store = `release-${run}`;
  const customer = await connectedCustomer(request, baseURL!, store);
  const before = await currentZip(request, baseURL!, customer.token, customer.key);
  // Higher than any earlier run's (a retry uploads again): the newest version, so customers get it.
  const version = `90.${Math.floor(Date.now() / 1000) % 100_000_000}.0`;

  await login(STAFF);
  await page.goto('/staff/releases?edition=LITE');
  await expect(page.getByRole('heading', { name: 'Releases', level: 1 })).toBeVisible();
  await expect(page.getByRole('tab', { name: 'LITE' })).toHaveAttribute('aria-selected', 'true');
  const versions = page.getByRole('table', { name: 'Versions' });
  await expect(
    versions.getByRole('rowheader', { name: new RegExp(`^${before.version.replace(/\./g, '\\.')} Current`) }),
  ).toBeVisible();

  // Not a zip: the browser says so before sending anything.
  const form = page.getByRole('form', { name: 'Upload a release' });
  await form.getByLabel('Version').fill(version);
  await form.getByLabel('Reason (recorded in the audit log)').fill(`e2e release ${run}`);
  await form
    .getByLabel('Theme zip')
    .setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('hi') });
  await form.getByRole('button', { name: 'Upload release' }).click();
  await expect(form.getByRole('alert')).toContainText('Not a zip file we can read');

  // Not a theme: the server's problem, named.
  await form.getByLabel('Theme zip').setInputFiles({
    name: 'empty.zip',
    mimeType: 'application/zip',
    buffer: Buffer.from('PK\x05\x06' + '\0'.repeat(18), 'binary'),
  });
  await form.getByRole('button', { name: 'Upload release' }).click();
  await expect(form.getByRole('alert')).toContainText(/Not a zip file we can read|Not a Shopify theme/);

  // The real zip, with what it renamed (its migration map, checked against its files): a progress bar while it goes
  // up, then the new version is current (the newest).
  await form
    .getByLabel('Theme zip')
    .setInputFiles({ name: 'theme.zip', mimeType: 'application/zip', buffer: before.bytes });
  await form.getByLabel('Migration map (optional)').setInputFiles({
    name: 'renames.json',
    mimeType: 'application/json',
    buffer: Buffer.from('{ "settings": { "color_primary": "color_accent" } }'),
  });
  await form.getByRole('button', { name: 'Upload release' }).click();
  await expect(form.getByRole('status')).toHaveText(`LITE ${version} is uploaded.`);
  await expect(versions.getByRole('rowheader', { name: `${version} Current (newest)` })).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);

  // The customer, in a browser of their own (a shared context would share the session), downloads the new version.
  const customerContext = await browser.newContext({ baseURL });
  const customerPage = await customerContext.newPage();
  await useSession(customerPage, customer.token);
  await customerPage.goto('/customer/my-keys');
  const downloadPromise = customerPage.waitForEvent('download');
  await customerPage.getByRole('button', { name: `Download theme for ${store}` }).click();
  const download = await downloadPromise;
  expect(download.suggestedFilename()).toMatch(new RegExp(`-lite-${version.replace(/\./g, '\\.')}\\.zip$`));

  // Staff see the store on the new version and its migration map, then make the earlier version current again.
  await page.reload();
  await versions.getByRole('button', { name: `Files of ${version}` }).click();
  await expect(page.getByText(`${store}.myshopify.com`)).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Migration map (1 rename)' })).toBeVisible();
  await expect(page.getByRole('list', { name: `Renames of ${version}` })).toHaveText(
    'Setting: color_primary → color_accent',
  );
  await page.screenshot({ path: path.join(screenshots, 'staff-release-detail-desktop.png'), fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: path.join(screenshots, 'staff-release-detail-phone.png'), fullPage: true });
  await page.setViewportSize({ width: 1440, height: 900 });
  await versions.getByRole('button', { name: `Make ${before.version} current` }).click();
  const dialog = page.getByRole('dialog', { name: `Make LITE ${before.version} current?` });
  await expect(dialog).toContainText(`will download ${before.version} instead of ${version}`);
  await dialog.getByRole('textbox', { name: 'Reason' }).fill('e2e: back to the release the other specs expect');
  await dialog.getByRole('button', { name: 'Make current' }).click();
  await expect(dialog).toHaveCount(0);
  await expect(versions.getByRole('rowheader', { name: `${before.version} Current` })).toBeVisible();
  expect((await currentZip(request, baseURL!, customer.token, customer.key)).version).toBe(before.version);
  await customerContext.close();
});

test('staff approve one report and reject another; the customer sees the balance change', async ({
  page,
  request,
  baseURL,
  login,
  browser,
}) => {
  test.slow();
  const run = Math.random().toString(36).slice(2, 8);
  const customer = await createCustomer(request, baseURL!, 'reporter');
  const headers = { authorization: `Token ${customer.token}` };
  for (const batch of ['a', 'b']) {
    const stores = [1, 2, 3, 4, 5].map((n) => `copy-${run}-${batch}${n}.com`);
    const response = await request.post(`${baseURL}/credits/report-store`, { headers, data: { storeDomains: stores } });
    expect(((await response.json()) as { ok: boolean }).ok).toBe(true);
  }
  const staffToken = await apiLogin(request, baseURL!, STAFF);
  const queue = await request.get(`${baseURL}/staff/reports?status=pending&limit=100`, {
    headers: { authorization: `Token ${staffToken}` },
  });
  const ids = ((await queue.json()) as { reports: { id: number; reporter: { email: string } }[] }).reports
    .filter((report) => report.reporter.email === customer.email)
    .map((report) => report.id);
  expect(ids).toHaveLength(2);

  await login(STAFF);
  await page.goto('/staff/reports?status=pending');
  await expect(page.getByRole('heading', { name: 'Store reports', level: 1 })).toBeVisible();
  const table = page.getByRole('table', { name: 'Store reports' });
  await expect(table.getByText(`copy-${run}-a1.com`)).toBeVisible();
  await expect(table.getByText('History: 2 pending, 0 approved, 0 rejected').first()).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);

  await table.getByRole('button', { name: `Approve report #${ids[0]}` }).click();
  let dialog = page.getByRole('dialog', { name: `Approve report #${ids[0]}?` });
  await dialog.getByRole('textbox', { name: 'Reason' }).fill('Five unlicensed copies');
  await dialog.getByRole('button', { name: 'Approve' }).click();
  await expect(dialog).toHaveCount(0);

  await table.getByRole('button', { name: `Reject report #${ids[1]}` }).click();
  dialog = page.getByRole('dialog', { name: `Reject report #${ids[1]}?` });
  await expect(dialog).toContainText(`holds for ${customer.email} is dropped; it was never spendable`);
  await dialog.getByRole('textbox', { name: 'Reason' }).fill('These stores are not ours to report');
  await dialog.getByRole('button', { name: 'Reject' }).click();
  await expect(dialog).toHaveCount(0);
  // Decided reports leave the pending filter.
  await expect(table.getByText(`copy-${run}-a1.com`)).toHaveCount(0);

  // Each report held 1 credit pending review: the approval added one, the rejection dropped the other.
  const customerContext = await browser.newContext({ baseURL });
  const customerPage = await customerContext.newPage();
  await useSession(customerPage, customer.token);
  await customerPage.goto('/customer/my-keys');
  await customerPage.getByRole('button', { name: 'User menu' }).click();
  await expect(customerPage.getByRole('menu').getByTestId('credits-balance')).toHaveText('Credits: 1');
  await customerContext.close();
});
