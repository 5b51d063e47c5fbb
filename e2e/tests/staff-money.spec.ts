import { readFile } from 'node:fs/promises';
import type { APIRequestContext, Page } from '@playwright/test';
import { apiLogin, createCustomer, expect, mintKeys, STAFF, test, useSession } from '../support/fixtures';

/** Issue 12 as staff see it: upgrade tokens minted in the console, and a sandbox order refunded from it. */
test.use({ viewport: { width: 1440, height: 900 } });
// Each test crosses the console and the dashboard several times (and waits for a webhook): more than one page's time.
test.describe.configure({ timeout: 90_000 });

/** Opens a console page as staff do: the user menu's Staff console, then the console's nav. */
async function openConsolePage(page: Page, label: string) {
  await page.goto('/customer/my-keys');
  await page.getByRole('button', { name: 'User menu' }).click();
  await page.getByRole('menuitem', { name: 'Staff console' }).click();
  await page.getByRole('navigation', { name: 'Staff console' }).getByRole('link', { name: label, exact: true }).click();
  await expect(page.getByRole('heading', { name: label, level: 1 })).toBeVisible();
}

/** Sets the page's filters through its filter form (they land in the URL). */
async function filterBy(page: Page, filters: Record<string, string>) {
  for (const [label, value] of Object.entries(filters)) await page.getByLabel(label).selectOption(value);
  await page.getByRole('button', { name: 'Apply' }).click();
}

async function customerWithLiteKey(request: APIRequestContext, baseURL: string) {
  const [key] = await mintKeys(request, baseURL, 'LITE', 1);
  const customer = await createCustomer(request, baseURL, 'staff-money');
  const added = await request.post(`${baseURL}/keys/`, {
    headers: { authorization: `Token ${customer.token}` },
    data: { key },
  });
  expect(added.status()).toBe(201);
  return { ...customer, key: key! };
}

test('staff mint an upgrade token in the console (CSV), a customer redeems it, the list shows who used it', async ({
  page,
  request,
  baseURL,
}) => {
  const customer = await customerWithLiteKey(request, baseURL!);
  await useSession(page, await apiLogin(request, baseURL!, STAFF));
  await openConsolePage(page, 'Upgrade tokens');

  await page.getByRole('button', { name: 'Mint tokens' }).click();
  const dialog = page.getByRole('dialog', { name: 'Mint upgrade tokens' });
  await dialog.getByLabel('Path').selectOption('LITE_TO_REGULAR');
  await dialog.getByLabel('How many').fill('1');
  await dialog.getByLabel('Reason').fill('e2e: a token for one customer');
  await dialog.getByRole('button', { name: 'Mint' }).click();
  await expect(dialog).toBeHidden();

  const downloading = page.waitForEvent('download');
  await page.getByRole('link', { name: 'Download CSV' }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(/^upgrade-tokens-LITE_TO_REGULAR-.*\.csv$/);
  const csv = await readFile((await download.path())!, 'utf8');
  const [header, row] = csv.trim().split('\r\n');
  expect(header).toBe('token,path');
  const token = row!.split(',')[0]!;
  expect(token).toMatch(/^UPG-/);

  // The customer redeems it on the dashboard.
  await useSession(page, customer.token);
  await page.goto('/customer/my-keys');
  const card = page.getByTestId('key-card');
  await expect(card.getByText('LITE', { exact: true })).toBeVisible();
  await card.getByRole('button', { name: 'Upgrade' }).click();
  // §2 dialog 5 (Upgrade Options) first, then the Upgrade License dialog.
  await page
    .getByRole('dialog', { name: 'Upgrade Options' })
    .getByRole('button', { name: /Upgrade License/ })
    .click();
  const upgrade = page.getByRole('dialog', { name: 'Upgrade License' });
  await upgrade.getByRole('button', { name: 'Use Token' }).click();
  await upgrade.getByText('Upgrade to REGULAR').click();
  await upgrade.getByLabel('Upgrade token', { exact: true }).fill(token);
  await upgrade.getByRole('button', { name: 'Redeem Token' }).click();
  await expect(page.getByText('Successfully upgraded LITE to REGULAR!')).toBeVisible();
  await expect(card.getByText('REGULAR', { exact: true })).toBeVisible();

  // Back in the console: the token is used, by that customer.
  await useSession(page, await apiLogin(request, baseURL!, STAFF));
  await openConsolePage(page, 'Upgrade tokens');
  await filterBy(page, { Status: 'used' });
  await expect(page).toHaveURL(/status=used/);
  await expect(page.getByRole('table', { name: 'Upgrade tokens' }).getByText(customer.email)).toBeVisible();
});

test('staff refund a sandbox card order from the console; the webhook reverts the customer tier', async ({
  page,
  request,
  baseURL,
}) => {
  const customer = await customerWithLiteKey(request, baseURL!);
  const headers = { authorization: `Token ${customer.token}` };
  const started = await request.post(`${baseURL}/stripe/payment-intents`, {
    headers,
    data: {
      price_id: 'price_sandbox_lite_to_regular',
      theme_type: 'REGULAR',
      key: customer.key,
      billing: {
        name: 'Anna Kunde',
        email: customer.email,
        address: { line1: 'Hauptstraße 1', city: 'Berlin', postal_code: '10115', country: 'DE' },
        is_business: false,
      },
    },
  });
  expect(started.status()).toBe(200);
  const { payment_intent, order } = (await started.json()) as {
    payment_intent: { id: string };
    order: { id: number };
  };
  const confirmed = await request.post(`${baseURL}/sandbox/stripe/confirm`, {
    headers,
    data: { payment_intent_id: payment_intent.id, card_number: '4242 4242 4242 4242' },
  });
  expect(confirmed.status()).toBe(200);
  await expect(async () => {
    const synced = await request.post(`${baseURL}/stripe/payment-intents/${payment_intent.id}/sync`, { headers });
    expect(((await synced.json()) as { order: { status: string } }).order.status).toBe('completed');
  }).toPass();

  await useSession(page, await apiLogin(request, baseURL!, STAFF));
  await openConsolePage(page, 'Orders');
  await filterBy(page, { Status: 'completed', 'Paid with': 'card' });
  const row = page.getByRole('row').filter({ hasText: customer.email });
  await expect(row).toContainText(`#${order.id}`);
  await expect(row).toContainText('$142.80');
  await expect(row).toContainText(payment_intent.id);
  await row.getByRole('button', { name: 'Refund' }).click();
  const dialog = page.getByRole('dialog', { name: `Refund order ${order.id}?` });
  await expect(dialog).toContainText('$142.80 goes back to');
  await dialog.getByLabel('Reason').fill('e2e: customer asked for a refund');
  await dialog.getByRole('button', { name: 'Refund' }).click();
  await expect(dialog).toBeHidden();

  // The provider's webhook does the rest: the license is LITE again and the order is refunded.
  await useSession(page, customer.token);
  await expect(async () => {
    await page.goto('/customer/my-keys');
    await expect(page.getByTestId('key-card').getByText('LITE', { exact: true })).toBeVisible({ timeout: 1000 });
  }).toPass();
  await useSession(page, await apiLogin(request, baseURL!, STAFF));
  await openConsolePage(page, 'Orders');
  await filterBy(page, { Status: 'refunded' });
  await expect(page.getByRole('row').filter({ hasText: customer.email })).toContainText(`#${order.id}`);
});
