import { readFileSync } from 'node:fs';
import path from 'node:path';
import { createCustomer, expect, mintKeys, test, useSession } from '../support/fixtures';

test.use({ viewport: { width: 1440, height: 900 } });

/** Screenshots for people to look at (not compared): test-results, or docs/screenshots with UPDATE_SCREENSHOTS=1. */
const screenshots = process.env.UPDATE_SCREENSHOTS
  ? path.resolve(import.meta.dirname, '../../docs/screenshots')
  : path.resolve(import.meta.dirname, '../../test-results/screenshots');

test('a LITE card owning a REGULAR key: routing, upload of the LITE export, its progress, the report, the download, the move', async ({
  page,
  request,
  baseURL,
}) => {
  const [liteKey] = await mintKeys(request, baseURL!, 'LITE', 1);
  const [regularKey] = await mintKeys(request, baseURL!, 'REGULAR', 1);
  const customer = await createCustomer(request, baseURL!, 'theme-file-update');
  const auth = { authorization: `Token ${customer.token}` };
  for (const key of [liteKey, regularKey]) {
    expect((await request.post(`${baseURL}/keys/`, { headers: auth, data: { key } })).status()).toBe(201);
  }
  const store = `tu-${Date.now().toString(36)}.myshopify.com`;
  const saved = await request.put(`${baseURL}/keys/`, {
    headers: auth,
    data: { key: liteKey, myshopify: store, main_url: '', secondary_url: '' },
  });
  expect(saved.status()).toBe(200);

  await useSession(page, customer.token);
  await page.goto('/customer/my-keys');
  const liteCard = page.getByTestId('key-card').filter({ hasText: liteKey! });
  const regularCard = page.getByTestId('key-card').filter({ hasText: regularKey! });
  await expect(liteCard.getByTestId('card-domain')).toHaveText(store);

  // The store's theme as the merchant has it: the LITE theme downloaded from the card.
  const exported = page.waitForEvent('download');
  await liteCard.getByRole('button', { name: /Download theme for/ }).click();
  const exportPath = await (await exported).path();
  expect(readFileSync(exportPath).subarray(0, 2).toString('latin1')).toBe('PK');

  // Routing (§4): a LITE card whose owner has only a REGULAR key goes straight to lite-to-reg.
  await liteCard.getByRole('button', { name: /^Upgrade / }).click(); // 'Upgrade <the key>' (ADR 042)
  const options = page.getByRole('dialog', { name: 'Upgrade Options' });
  await options.getByRole('button', { name: /Upgrade Theme/ }).click();
  await expect(page).toHaveURL(/\/customer\/upgrade_file\/lite-to-reg$/);
  const stored = await page.evaluate(() => JSON.parse(localStorage.getItem('themeUpgradeInfo') ?? 'null') as unknown);
  expect(stored).toEqual({
    targetLicenseKey: regularKey,
    targetLicenseType: 'REGULAR',
    sourceLicenseKey: liteKey,
    sourceLicenseType: 'LITE',
    sourceLicenseVersion: null,
  });

  // The page names both licenses and the target version before anything; a reload keeps them.
  const sides = page.getByRole('region', { name: 'Source and target license' });
  await expect(sides.getByText(regularKey!)).toBeVisible();
  await expect(sides.getByText(/^version \d/)).toBeVisible();
  await page.reload();
  await expect(sides.getByText(liteKey!)).toBeVisible();
  await expect(sides.getByText(regularKey!)).toBeVisible();
  await expect(page.getByText('In your Shopify admin, go to Online Store → Themes.')).toBeVisible();
  await page.screenshot({ path: path.join(screenshots, 'theme-file-update-page-desktop.png'), fullPage: true });

  // The browser saved the download under a temporary name; the person picks it as the .zip it is.
  await page.getByLabel('Choose file').setInputFiles({
    name: 'lite-theme-export.zip',
    mimeType: 'application/zip',
    buffer: readFileSync(exportPath),
  });
  const go = page.getByRole('button', { name: 'Upgrade to REGULAR' });
  await expect(go).toBeDisabled();
  await page.getByRole('checkbox', { name: /will be connected to the REGULAR key/ }).check();
  // The run is a job: the upload answers at once with it, and the page polls it. The first poll is held here so the
  // progress (as the server answered it) can be looked at; then the page follows the job to its end.
  let releasePolls!: () => void;
  const pollsHeld = new Promise<void>((resolve) => (releasePolls = resolve));
  await page.route(/\/theme-file-updates\/\d+$/, async (route) => {
    await pollsHeld;
    await route.continue();
  });
  await go.click();
  const progress = page.getByRole('region', { name: 'Building your REGULAR theme…' });
  await expect(progress.getByRole('status')).toHaveText(/^Step \d of 6: /);
  await expect(progress.getByRole('progressbar', { name: 'Upgrade progress' })).toBeVisible();
  await expect(progress.getByRole('button', { name: 'Cancel upgrade' })).toBeEnabled();
  await expect(page).toHaveURL(/\?run=\d+$/);
  await page.screenshot({ path: path.join(screenshots, 'theme-file-update-progress-desktop.png'), fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: path.join(screenshots, 'theme-file-update-progress-phone.png'), fullPage: true });
  await page.setViewportSize({ width: 1440, height: 900 });
  releasePolls();

  await expect(page.getByRole('heading', { name: /Your REGULAR theme .* is ready/ })).toBeVisible({ timeout: 30_000 });
  // What the export was (told by its files) and what it became: never the key's new tier for the export's.
  await expect(page.getByText(/^Upgraded from your LITE \S+ theme to REGULAR \S+\.$/)).toBeVisible();
  await page.unroute(/\/theme-file-updates\/\d+$/);
  await expect(page.getByLabel('Report summary')).toBeVisible();
  await expect(page).toHaveURL(/\?run=\d+$/);
  await page.screenshot({ path: path.join(screenshots, 'theme-file-update-report-desktop.png'), fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: path.join(screenshots, 'theme-file-update-report-phone.png'), fullPage: true });
  await page.setViewportSize({ width: 1440, height: 900 });
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Download theme' }).click();
  const output = await download;
  expect(output.suggestedFilename()).toMatch(/\.zip$/);
  expect(
    readFileSync(await output.path())
      .subarray(0, 2)
      .toString('latin1'),
  ).toBe('PK');
  const reportDownload = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Report (JSON)' }).click();
  const report = JSON.parse(readFileSync(await (await reportDownload).path(), 'utf8')) as {
    detection: { confident: boolean; release: { edition: string } | null };
    items: unknown[];
  };
  // The export is the LITE theme as downloaded: told by its files, and nothing of the merchant's to carry over.
  expect(report.detection).toMatchObject({ confident: true, release: { edition: 'LITE' } });
  expect(report.items).toEqual([]);

  // The store's connection moved to the REGULAR key; the LITE key is free.
  await page.getByRole('link', { name: 'My Keys' }).click();
  await expect(regularCard.getByTestId('card-domain')).toHaveText(store);
  await expect(regularCard.getByText('Connected', { exact: true })).toBeVisible();
  await expect(liteCard.getByRole('button', { name: 'Connect Store' })).toBeVisible();

  // The run is listed on the key page of the REGULAR key, with its files.
  const keys = (await (await request.get(`${baseURL}/keys/`, { headers: auth })).json()) as {
    id: number;
    api_key: string;
  }[];
  await page.goto(`/customer/my-keys/${keys.find((key) => key.api_key === regularKey)!.id}`);
  const runs = page.getByRole('region', { name: 'Theme upgrades' });
  await expect(runs.getByText(/^LITE .*→ REGULAR /)).toBeVisible();
  await expect(runs.getByRole('button', { name: 'Download theme' })).toBeEnabled();
});

test('Quick Actions → Upgrade Files: the customer picks the target key; one licensing another store moves only with the consent naming it', async ({
  page,
  request,
  baseURL,
}) => {
  const [liteKey] = await mintKeys(request, baseURL!, 'LITE', 1);
  const [freeKey, takenKey] = await mintKeys(request, baseURL!, 'REGULAR', 2);
  const customer = await createCustomer(request, baseURL!, 'theme-consent');
  const auth = { authorization: `Token ${customer.token}` };
  for (const key of [liteKey, freeKey, takenKey]) {
    expect((await request.post(`${baseURL}/keys/`, { headers: auth, data: { key } })).status()).toBe(201);
  }
  const stamp = Date.now().toString(36);
  const store = `tc-${stamp}.myshopify.com`;
  const otherStore = `other-${stamp}.myshopify.com`;
  for (const [key, myshopify] of [
    [liteKey, store],
    [takenKey, otherStore],
  ] as const) {
    const saved = await request.put(`${baseURL}/keys/`, {
      headers: auth,
      data: { key, myshopify, main_url: '', secondary_url: '' },
    });
    expect(saved.status()).toBe(200);
  }

  await useSession(page, customer.token);
  await page.goto('/customer/my-keys');
  const liteCard = page.getByTestId('key-card').filter({ hasText: liteKey! });
  const exported = page.waitForEvent('download');
  await liteCard.getByRole('button', { name: /Download theme for/ }).click();
  const exportPath = await (await exported).path();

  await page.getByRole('navigation', { name: 'Quick Actions' }).getByRole('button', { name: 'Upgrade Files' }).click();
  const dialog = page.getByRole('dialog', { name: 'Upgrade your theme file' });
  await dialog.getByRole('button', { name: /Upgrade LITE to Regular/ }).click();
  // Two REGULAR keys: nothing is picked for the customer; the one licensing another store says what it means.
  await expect(dialog.getByRole('button', { name: new RegExp(freeKey!) })).toHaveAccessibleDescription(
    'No store connected',
  );
  const taken = dialog.getByRole('button', { name: new RegExp(takenKey!) });
  await expect(taken).toHaveAccessibleDescription(
    `Licenses ${otherStore} now: ${otherStore} will lose its license if you use this key.`,
  );
  await page.screenshot({ path: path.join(screenshots, 'theme-file-update-target-choice-desktop.png') });
  await taken.click();
  await expect(page).toHaveURL(/\/customer\/upgrade_file\/lite-to-reg$/);

  await expect(page.getByLabel('REGULAR license to use')).toHaveValue(/\d+/);
  await page.getByLabel('Choose file').setInputFiles({
    name: 'lite-theme-export.zip',
    mimeType: 'application/zip',
    buffer: readFileSync(exportPath),
  });
  await page.getByRole('checkbox', { name: /will be connected to the REGULAR key/ }).check();
  const go = page.getByRole('button', { name: 'Upgrade to REGULAR' });
  await expect(go).toBeDisabled();
  const consent = page.getByRole('checkbox', {
    name: new RegExp(`I understand that ${otherStore.replaceAll('.', '\\.')} will lose its license`),
  });
  await expect(consent).toBeVisible();
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: path.join(screenshots, 'theme-file-update-consent-phone.png'), fullPage: true });
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.screenshot({ path: path.join(screenshots, 'theme-file-update-consent-desktop.png'), fullPage: true });
  await consent.check();
  await go.click();
  await expect(page.getByRole('heading', { name: /Your REGULAR theme .* is ready/ })).toBeVisible({ timeout: 30_000 });

  // The customer agreed: the taken key now licenses their store.
  const keys = (await (await request.get(`${baseURL}/keys/`, { headers: auth })).json()) as {
    api_key: string;
    myshopify: string | null;
  }[];
  expect(keys.find((key) => key.api_key === takenKey)!.myshopify).toBe(store);
  expect(keys.find((key) => key.api_key === freeKey)!.myshopify).toBeNull();
});
