import path from 'node:path';
import type { APIRequestContext, Locator, Page } from '@playwright/test';
import { createCustomer, expect, mintKeys, test, useSession } from '../support/fixtures';

/** Screenshots for people to look at (docs/screenshots with UPDATE_SCREENSHOTS=1), not compared by the test. */
const screenshots = process.env.UPDATE_SCREENSHOTS
  ? path.resolve(import.meta.dirname, '../../docs/screenshots')
  : path.resolve(import.meta.dirname, '../../test-results/screenshots');

const CAPTURE_PATH = '/stripe/paypal/capture-order';

async function customerWithLiteKey(request: APIRequestContext, baseURL: string) {
  const [key] = await mintKeys(request, baseURL, 'LITE', 1);
  const customer = await createCustomer(request, baseURL, 'paypal');
  const added = await request.post(`${baseURL}/keys/`, {
    headers: { authorization: `Token ${customer.token}` },
    data: { key },
  });
  expect(added.status()).toBe(201);
  return { ...customer, key: key! };
}

/** Card → Upgrade → Upgrade Options → Upgrade License, with PRO chosen. */
async function openDialogForPro(page: Page, screenshot?: string) {
  const card = page.getByTestId('key-card');
  await expect(card.getByText('LITE', { exact: true })).toBeVisible();
  await card.getByRole('button', { name: 'Upgrade' }).click();
  const options = page.getByRole('dialog', { name: 'Upgrade Options' });
  await expect(options.getByText('Move to REGULAR or PRO, from $120.00')).toBeVisible();
  if (screenshot) await page.screenshot({ path: path.join(screenshots, screenshot) });
  await options.getByRole('button', { name: /Upgrade License/ }).click();
  const dialog = page.getByRole('dialog', { name: 'Upgrade License' });
  await dialog.getByText('Upgrade to PRO').click();
  return { card, dialog };
}

async function fillBilling(dialog: Locator) {
  await dialog.getByLabel('Full name').fill('Jane Doe');
  await dialog.getByLabel('Email').fill('jane@example.com');
  await dialog.getByLabel('Address line 1').fill('1 Market Street');
  await dialog.getByLabel('City').fill('San Francisco');
  await dialog.getByLabel('Postal code').fill('94105');
  await dialog.getByLabel('Country').selectOption('US');
}

/** Counts the browser's capture-order calls, across reloads of the page. */
function countCaptures(page: Page) {
  const seen = { count: 0 };
  page.on('request', (request) => {
    if (request.method() === 'POST' && new URL(request.url()).pathname === CAPTURE_PATH) seen.count += 1;
  });
  return seen;
}

test.describe('PayPal through the sandbox approval page', () => {
  test.use({ viewport: { width: 1440, height: 900 } });

  test('LITE to PRO: approve on the sandbox page, back on the dashboard the key is PRO; a reload never captures again', async ({
    page,
    request,
    baseURL,
  }) => {
    const customer = await customerWithLiteKey(request, baseURL!);
    const captures = countCaptures(page);
    await useSession(page, customer.token);
    // The person searched first: the return keeps the search (ADR 042).
    const search = customer.key.slice(0, 5);
    await page.goto(`/customer/my-keys?q=${search}`);
    const { dialog } = await openDialogForPro(page, 'upgrade-options-desktop.png');

    const paypal = dialog.getByTestId('paypal-section');
    await expect(paypal).toContainText('or pay with PayPal');
    await expect(paypal).toContainText('Please fill in all billing information above to use PayPal');
    await expect(paypal.getByRole('button', { name: 'Continue to PayPal' })).toHaveCount(0);
    await fillBilling(dialog);
    await expect(dialog.getByTestId('order-total')).toHaveText('$320.00');
    const payWithPaypal = paypal.getByRole('button', { name: 'Continue to PayPal' });
    await expect(payWithPaypal).toBeEnabled();
    await payWithPaypal.scrollIntoViewIfNeeded();
    await page.screenshot({ path: path.join(screenshots, 'paypal-dialog-desktop.png') });

    const returned = page.waitForRequest((r) => r.isNavigationRequest() && r.url().includes('paypalReturn=true'));
    await payWithPaypal.click();
    await expect(page).toHaveURL(/\/sandbox\/paypal\/checkout\?token=/);
    await expect(page.getByLabel('Amount to pay')).toHaveText('$320.00 USD');
    await page.getByRole('button', { name: 'Approve payment' }).click();

    const returnUrl = (await returned).url();
    expect(returnUrl).toMatch(/\/customer\/my-keys\?paypalReturn=true&token=[A-Z0-9]+/);
    // The card path's success screen, over the dashboard as it was left.
    const done = page.getByRole('dialog', { name: 'Upgrade License' });
    await expect(done.getByRole('heading', { name: 'License Upgrade Complete!' })).toBeVisible();
    await expect(done.getByText('Payment completed. Your license was upgraded.')).toBeVisible();
    await expect(done.getByRole('link', { name: 'Upgrade Theme Files' })).toBeVisible();
    await expect(page).toHaveURL(new RegExp(`/customer/my-keys\\?q=${search}$`)); // the parameters are gone
    await done.getByRole('button', { name: 'Close' }).first().click();
    await expect(done).toBeHidden();
    await expect(page.getByRole('searchbox', { name: 'Search keys' })).toHaveValue(search);
    const card = page.getByTestId('key-card');
    await expect(card.getByText('PRO', { exact: true })).toBeVisible();
    await expect(card.getByRole('button', { name: 'Upgrade' })).toHaveCount(0);
    expect(captures.count).toBe(1);

    // The return URL again (a reload of it, the back button): this tab never asks to capture twice.
    await page.goto(returnUrl);
    await expect(page).toHaveURL(/\/customer\/my-keys$/);
    await page.reload();
    await expect(page.getByTestId('key-card').getByText('PRO', { exact: true })).toBeVisible();
    await expect(page.getByTestId('key-card')).toHaveCount(1);
    await expect(page.getByText('Payment completed. Your license was upgraded.')).toHaveCount(0);
    expect(captures.count).toBe(1);

    // The server holds one completed PayPal upgrade.
    const upgrades = await request.get(`${baseURL}/keys/check_purchased_upgrades`, {
      headers: { authorization: `Token ${customer.token}` },
    });
    expect(upgrades.status()).toBe(200);
    const paid = ((await upgrades.json()) as { stripe_upgrades: { source: string; upgrade_to: string }[] })
      .stripe_upgrades;
    expect(paid.map((upgrade) => [upgrade.source, upgrade.upgrade_to])).toEqual([['paypal', 'PRO']]);
  });

  test('cancelled on the sandbox page: "PayPal checkout was cancelled", the key stays LITE', async ({
    page,
    request,
    baseURL,
  }) => {
    const customer = await customerWithLiteKey(request, baseURL!);
    const captures = countCaptures(page);
    await useSession(page, customer.token);
    await page.goto('/customer/my-keys');
    const { dialog } = await openDialogForPro(page);
    await fillBilling(dialog);
    await dialog.getByRole('button', { name: 'Continue to PayPal' }).click();
    await expect(page).toHaveURL(/\/sandbox\/paypal\/checkout\?token=/);
    const approvalUrl = page.url();
    await page.getByRole('button', { name: 'Cancel' }).click();

    await expect(page.getByText('PayPal checkout was cancelled')).toBeVisible();
    await expect(page).toHaveURL(/\/customer\/my-keys$/);
    await expect(page.getByTestId('key-card').getByText('LITE', { exact: true })).toBeVisible();
    expect(captures.count).toBe(0);

    // Issue 19: the cancelled checkout stays cancelled: its approval page offers nothing to approve any more.
    await page.goto(approvalUrl);
    await expect(page.getByRole('status')).toHaveText(
      'This checkout was cancelled. Nothing was charged; start again from the portal.',
    );
    await expect(page.getByRole('button', { name: 'Approve payment' })).toHaveCount(0);
  });
});

test.describe('on a phone', () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test('Upgrade Options and the dialog with PayPal fit a 390 px screen', async ({ page, request, baseURL }) => {
    const customer = await customerWithLiteKey(request, baseURL!);
    await useSession(page, customer.token);
    await page.goto('/customer/my-keys');
    const card = page.getByTestId('key-card');
    await card.getByRole('button', { name: 'Upgrade' }).click();
    const options = page.getByRole('dialog', { name: 'Upgrade Options' });
    await expect(options.getByText('Move to REGULAR or PRO, from $120.00')).toBeVisible();
    await expect(options.getByRole('button', { name: /Upgrade Theme/ })).toBeEnabled();
    await page.screenshot({ path: path.join(screenshots, 'upgrade-options-phone.png') });
    await options.getByRole('button', { name: /Upgrade License/ }).click();

    const dialog = page.getByRole('dialog', { name: 'Upgrade License' });
    await dialog.getByText('Upgrade to PRO').click();
    await fillBilling(dialog);
    const paypal = dialog.getByRole('button', { name: 'Continue to PayPal' });
    await paypal.scrollIntoViewIfNeeded();
    await expect(paypal).toBeInViewport();
    const box = await paypal.boundingBox();
    expect(box!.x).toBeGreaterThanOrEqual(0);
    expect(box!.x + box!.width).toBeLessThanOrEqual(390);
    await page.screenshot({ path: path.join(screenshots, 'paypal-dialog-phone.png') });
  });
});
