import path from 'node:path';
import type { APIRequestContext, Locator, Page } from '@playwright/test';
import { apiLogin, createCustomer, expect, mintKeys, STAFF, test, useSession } from '../support/fixtures';

/**
 * Screenshots of the dialog, looked at by people, not compared by the test: in the test output, and in docs/screenshots
 * with `UPDATE_SCREENSHOTS=1` (as quality.spec.ts does), so a test run leaves the repository unchanged.
 */
const screenshots = process.env.UPDATE_SCREENSHOTS
  ? path.resolve(import.meta.dirname, '../../docs/screenshots')
  : path.resolve(import.meta.dirname, '../../test-results/screenshots');

test.use({ viewport: { width: 1440, height: 900 } });

async function customerWithKey(request: APIRequestContext, baseURL: string, tier: 'LITE' | 'REGULAR') {
  const [key] = await mintKeys(request, baseURL, tier, 1);
  const customer = await createCustomer(request, baseURL, `upgrade-${tier.toLowerCase()}`);
  const added = await request.post(`${baseURL}/keys/`, {
    headers: { authorization: `Token ${customer.token}` },
    data: { key },
  });
  expect(added.status()).toBe(201);
  return { ...customer, key: key! };
}

/** Single-use upgrade tokens, minted by staff (POST /staff/upgrade-tokens). */
async function mintUpgradeToken(request: APIRequestContext, baseURL: string, upgradePath: 'LITE_TO_REGULAR') {
  const staff = await apiLogin(request, baseURL, STAFF);
  const response = await request.post(`${baseURL}/staff/upgrade-tokens`, {
    headers: { authorization: `Token ${staff}` },
    data: { path: upgradePath, count: 1, reason: 'e2e: a token to redeem' },
  });
  expect(response.status()).toBe(201);
  return ((await response.json()) as { tokens: string[] }).tokens[0]!;
}

async function openUpgradeDialog(page: Page) {
  const card = page.getByTestId('key-card');
  await expect(card.getByText('LITE', { exact: true })).toBeVisible();
  await card.getByRole('button', { name: 'Upgrade' }).click();
  // §2 dialog 5: Upgrade Options first.
  await page
    .getByRole('dialog', { name: 'Upgrade Options' })
    .getByRole('button', { name: /Upgrade License/ })
    .click();
  const dialog = page.getByRole('dialog', { name: 'Upgrade License' });
  await expect(dialog.getByTestId('upgrade-option')).toHaveCount(2);
  return { card, dialog };
}

async function fillBilling(dialog: Locator, country: string) {
  await dialog.getByLabel('Full name').fill('Erika Mustermann');
  await dialog.getByLabel('Email').fill('erika@example.com');
  await dialog.getByLabel('Address line 1').fill('Unter den Linden 1');
  await dialog.getByLabel('City').fill('Berlin');
  await dialog.getByLabel('Postal code').fill('10117');
  await dialog.getByLabel('Country').selectOption(country);
}

async function fillCard(dialog: Locator, number: string) {
  await dialog.getByLabel('Card number').fill(number);
  await dialog.getByLabel('Expiration date (MM / YY)').fill('12 / 34');
  await dialog.getByLabel('CVC').fill('123');
}

test('LITE to REGULAR by card for a German consumer: 19% VAT, $142.80, then the success screen', async ({
  page,
  request,
  baseURL,
}) => {
  const customer = await customerWithKey(request, baseURL!, 'LITE');
  await useSession(page, customer.token);
  await page.goto('/customer/my-keys');
  const { card, dialog } = await openUpgradeDialog(page);

  await expect(dialog.getByTestId('payment-panel-state')).toHaveText(/Select an Upgrade/);
  await dialog.getByText('Upgrade to REGULAR').click();
  const summary = dialog.getByTestId('order-summary');
  await expect(summary).toContainText('Subtotal$120.00');
  await fillBilling(dialog, 'DE');
  await expect(summary).toContainText('VAT (19%)$22.80');
  await expect(dialog.getByTestId('order-total')).toHaveText('$142.80');

  const pay = dialog.getByRole('button', { name: 'Pay $142.80' });
  await expect(pay).toBeDisabled();
  await dialog.getByLabel('Card number').fill('4242 4242');
  await dialog.getByLabel('Full name').click();
  await expect(dialog.getByText('Your card number is incomplete.')).toBeVisible();
  await fillCard(dialog, '4242 4242 4242 4242');
  await expect(pay).toBeEnabled();
  await page.screenshot({ path: path.join(screenshots, 'upgrade-dialog-desktop.png') });
  await pay.click();

  await expect(dialog.getByRole('heading', { name: 'License Upgrade Complete!' })).toBeVisible();
  await expect(dialog.getByRole('link', { name: 'Upgrade Theme Files' })).toHaveAttribute(
    'href',
    '/customer/upgrade_file/lite-to-reg',
  );
  await page.screenshot({ path: path.join(screenshots, 'upgrade-success-desktop.png') });
  await dialog.getByRole('button', { name: 'Close', exact: true }).last().click();
  await expect(dialog).toBeHidden();
  await expect(card.getByText('REGULAR', { exact: true })).toBeVisible();
  await expect(card.getByRole('button', { name: 'Upgrade' })).toBeFocused();

  // Settings → Invoices lists the order with its amounts and its invoice (one PDF button).
  await page.goto('/customer/my-keys?settings=invoices');
  const order = page.getByRole('dialog', { name: 'Settings' }).getByTestId('order');
  await expect(order).toContainText('License upgrade LITE to REGULAR');
  await expect(order).toContainText('VAT (19%)$22.80');
  await expect(order).toContainText('Total$142.80');
  await expect(order.getByRole('button')).toHaveCount(1);
  const download = page.waitForEvent('download');
  await order.getByRole('button', { name: /^Download invoice \d{4}-\d{6} \(PDF\)$/ }).click();
  expect((await download).suggestedFilename()).toMatch(/^keyport-invoice-\d{4}-\d{6}\.pdf$/);
});

test('a German business with a verified VAT ID pays no VAT: Reverse Charge, $120.00', async ({
  page,
  request,
  baseURL,
}) => {
  const customer = await customerWithKey(request, baseURL!, 'LITE');
  await useSession(page, customer.token);
  await page.goto('/customer/my-keys');
  const { card, dialog } = await openUpgradeDialog(page);

  await dialog.getByText('Upgrade to REGULAR').click();
  await fillBilling(dialog, 'DE');
  await dialog.getByLabel("I'm purchasing as a business").check();
  await dialog.getByLabel('Company name').fill('Keyport Sandbox GmbH');
  await dialog.getByLabel(/VAT ID/).fill('DE123456789');
  const status = dialog.getByTestId('vat-status');
  await expect(status).toHaveAttribute('data-status', 'valid');
  await expect(status).toContainText('Keyport Sandbox GmbH');
  await expect(status).toContainText('Musterstraße 1, 10115 Berlin');
  await expect(dialog.getByTestId('order-summary')).toContainText('VATReverse Charge');
  await expect(dialog.getByTestId('order-total')).toHaveText('$120.00');

  await fillCard(dialog, '4242 4242 4242 4242');
  await dialog.getByRole('button', { name: 'Pay $120.00' }).click();
  await expect(dialog.getByRole('heading', { name: 'License Upgrade Complete!' })).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(card.getByText('REGULAR', { exact: true })).toBeVisible();
});

test("a declined card says 'Your card was declined.' and the license stays LITE", async ({
  page,
  request,
  baseURL,
  allowConsoleErrors,
}) => {
  allowConsoleErrors(/402 \(Payment Required\)/); // the sandbox's answer to a declined card
  const customer = await customerWithKey(request, baseURL!, 'LITE');
  await useSession(page, customer.token);
  await page.goto('/customer/my-keys');
  const { card, dialog } = await openUpgradeDialog(page);

  await dialog.getByText('Upgrade to REGULAR').click();
  await fillBilling(dialog, 'US');
  await fillCard(dialog, '4000 0000 0000 0002');
  await dialog.getByRole('button', { name: 'Pay $120.00' }).click();
  await expect(dialog.getByRole('alert').filter({ hasText: 'Your card was declined.' })).toBeVisible();
  await expect(dialog.getByRole('button', { name: 'Pay $120.00' })).toBeEnabled();
  await page.keyboard.press('Escape');
  await expect(card.getByText('LITE', { exact: true })).toBeVisible();
});

test('an upgrade token upgrades LITE to REGULAR with its toast', async ({ page, request, baseURL }) => {
  const customer = await customerWithKey(request, baseURL!, 'LITE');
  const token = await mintUpgradeToken(request, baseURL!, 'LITE_TO_REGULAR');
  await useSession(page, customer.token);
  await page.goto('/customer/my-keys');
  const { card, dialog } = await openUpgradeDialog(page);

  await dialog.getByRole('button', { name: 'Use Token' }).click();
  await expect(dialog.getByTestId('payment-panel-state')).toHaveText(/Token Redemption/);
  await dialog.getByLabel('Upgrade token', { exact: true }).fill(`  ${token}  `);
  await dialog.getByRole('button', { name: 'Redeem Token' }).click();
  await expect(dialog.getByRole('alert')).toHaveText('Please select an upgrade type first');
  await dialog.getByText('Upgrade to REGULAR').click();
  await dialog.getByRole('button', { name: 'Redeem Token' }).click();
  await expect(page.getByText('Successfully upgraded LITE to REGULAR!')).toBeVisible();
  await expect(dialog).toBeHidden();
  await expect(card.getByText('REGULAR', { exact: true })).toBeVisible();
});

test.describe('on a phone', () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test('the dialog stacks its columns and fits the screen', async ({ page, request, baseURL }) => {
    const customer = await customerWithKey(request, baseURL!, 'LITE');
    await useSession(page, customer.token);
    await page.goto('/customer/my-keys');
    const { dialog } = await openUpgradeDialog(page);
    await dialog.getByText('Upgrade to REGULAR').click();
    await fillBilling(dialog, 'DE');
    await expect(dialog.getByTestId('order-total')).toHaveText('$142.80');
    const overflow = await dialog.evaluate((element) => element.scrollWidth - element.clientWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await dialog.evaluate((element) => element.scrollTo(0, 0));
    await page.screenshot({ path: path.join(screenshots, 'upgrade-dialog-phone.png') });
    await fillCard(dialog, '4242 4242 4242 4242');
    await expect(dialog.getByRole('button', { name: 'Pay $142.80' })).toBeEnabled();
    await dialog.getByRole('button', { name: 'Pay $142.80' }).scrollIntoViewIfNeeded();
    await page.screenshot({ path: path.join(screenshots, 'upgrade-dialog-phone-payment.png') });
  });
});
