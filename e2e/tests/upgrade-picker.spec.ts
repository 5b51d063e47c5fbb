import path from 'node:path';
import type { APIRequestContext, Page } from '@playwright/test';
import { createCustomer, expect, mintKeys, test, useSession } from '../support/fixtures';

/** Screenshots for people to look at (docs/screenshots with UPDATE_SCREENSHOTS=1), not compared by the test. */
const screenshots = process.env.UPDATE_SCREENSHOTS
  ? path.resolve(import.meta.dirname, '../../docs/screenshots')
  : path.resolve(import.meta.dirname, '../../test-results/screenshots');

async function customerWithKeys(request: APIRequestContext, baseURL: string, tiers: ('LITE' | 'REGULAR' | 'PRO')[]) {
  const customer = await createCustomer(request, baseURL, 'picker');
  const keys: string[] = [];
  for (const tier of tiers) {
    const [key] = await mintKeys(request, baseURL, tier, 1);
    const added = await request.post(`${baseURL}/keys/`, {
      headers: { authorization: `Token ${customer.token}` },
      data: { key },
    });
    expect(added.status()).toBe(201);
    keys.push(key!);
  }
  return { ...customer, keys };
}

async function openPicker(page: Page) {
  await page.getByRole('button', { name: 'Upgrade a License' }).click();
  const picker = page.getByRole('dialog', { name: 'Upgrade a License' });
  await expect(picker.getByTestId('picker-choice')).toHaveCount(2);
  return picker;
}

test.describe('the dashboard upgrade picker at 1440 px', () => {
  test.use({ viewport: { width: 1440, height: 900 } });

  test('reg-lite-to-pro with a LITE and a REGULAR key: choose the REGULAR one, pay by card, "Upgrade completed"', async ({
    page,
    request,
    baseURL,
  }) => {
    const customer = await customerWithKeys(request, baseURL!, ['LITE', 'REGULAR']);
    const regularKey = customer.keys[1]!;
    await useSession(page, customer.token);
    await page.goto('/customer/my-keys');
    await expect(page.getByTestId('key-card')).toHaveCount(2);
    const picker = await openPicker(page);
    await page.screenshot({ path: path.join(screenshots, 'upgrade-picker-desktop.png') });

    await picker.getByRole('button', { name: /LITE or REGULAR to PRO/ }).click();
    await expect(picker.getByTestId('picker-key')).toHaveCount(2);
    await expect(picker.getByRole('button', { name: 'Continue' })).toBeDisabled();
    await picker.getByTestId('picker-key').filter({ hasText: regularKey }).click();
    await picker.getByRole('button', { name: 'Continue' }).click();

    const dialog = page.getByRole('dialog', { name: 'Upgrade License' });
    await expect(dialog.getByLabel('Current license')).toContainText(regularKey);
    await expect(dialog.getByRole('radio', { name: /Upgrade to PRO/ })).toBeChecked();
    await dialog.getByLabel('Full name').fill('Jane Doe');
    await dialog.getByLabel('Email').fill('jane@example.com');
    await dialog.getByLabel('Address line 1').fill('1 Market Street');
    await dialog.getByLabel('City').fill('San Francisco');
    await dialog.getByLabel('Postal code').fill('94105');
    await dialog.getByLabel('Country').selectOption('US');
    await dialog.getByLabel('Card number').fill('4242 4242 4242 4242');
    await dialog.getByLabel('Expiration date (MM / YY)').fill('12 / 34');
    await dialog.getByLabel('CVC').fill('123');
    await dialog.getByRole('button', { name: 'Pay $220.00' }).click();

    await expect(dialog.getByRole('heading', { name: 'License Upgrade Complete!' })).toBeVisible();
    await expect(page.getByText('Upgrade completed', { exact: true })).toBeVisible();
    await dialog.getByRole('button', { name: 'Close', exact: true }).last().click();
    await expect(dialog).toBeHidden();
    await expect(page.getByRole('button', { name: 'Upgrade a License' })).toBeFocused();
    const upgraded = page.getByTestId('key-card').filter({ hasText: 'PRO' });
    await expect(upgraded).toHaveCount(1);
    await expect(page.getByTestId('key-card').filter({ hasText: 'LITE' })).toHaveCount(1);
  });

  test('lite-to-reg with only a REGULAR key: "No eligible key found for this upgrade"', async ({
    page,
    request,
    baseURL,
  }) => {
    const customer = await customerWithKeys(request, baseURL!, ['REGULAR']);
    await useSession(page, customer.token);
    await page.goto('/customer/my-keys');
    await expect(page.getByTestId('key-card')).toHaveCount(1);
    const picker = await openPicker(page);
    await picker.getByRole('button', { name: /LITE to REGULAR/ }).click();
    await expect(picker.getByRole('alert')).toHaveText('No eligible key found for this upgrade');
  });

  test('every key PRO: "No upgrade available for your license level"', async ({ page, request, baseURL }) => {
    const customer = await customerWithKeys(request, baseURL!, ['PRO']);
    await useSession(page, customer.token);
    await page.goto('/customer/my-keys');
    await expect(page.getByTestId('key-card')).toHaveCount(1);
    const picker = await openPicker(page);
    await picker.getByRole('button', { name: /LITE or REGULAR to PRO/ }).click();
    await expect(picker.getByRole('alert')).toHaveText('No upgrade available for your license level');
  });
});

test.describe('the dashboard upgrade picker at 390 px', () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test('is reachable on a phone and opens Upgrade License for the only LITE key with REGULAR chosen', async ({
    page,
    request,
    baseURL,
  }) => {
    const customer = await customerWithKeys(request, baseURL!, ['LITE']);
    await useSession(page, customer.token);
    await page.goto('/customer/my-keys');
    await expect(page.getByTestId('key-card')).toHaveCount(1);
    const entry = page.getByRole('button', { name: 'Upgrade a License' });
    await expect(entry).toBeVisible();
    await page.screenshot({ path: path.join(screenshots, 'upgrade-picker-entry-phone.png') });
    const picker = await openPicker(page);
    await page.screenshot({ path: path.join(screenshots, 'upgrade-picker-phone.png') });
    await picker.getByRole('button', { name: /LITE to REGULAR/ }).click();
    const dialog = page.getByRole('dialog', { name: 'Upgrade License' });
    await expect(dialog.getByRole('radio', { name: /Upgrade to REGULAR/ })).toBeChecked();
    await expect(dialog.getByTestId('order-summary')).toContainText('Subtotal$120.00');
  });
});
