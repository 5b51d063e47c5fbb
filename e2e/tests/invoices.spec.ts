import { readFile } from 'node:fs/promises';
import type { APIRequestContext } from '@playwright/test';
import { createCustomer, expect, mintKeys, test, useSession } from '../support/fixtures';

test.use({ viewport: { width: 1440, height: 900 } });

async function customerWithLiteKey(request: APIRequestContext, baseURL: string) {
  const [key] = await mintKeys(request, baseURL, 'LITE', 1);
  const customer = await createCustomer(request, baseURL, 'invoices');
  const added = await request.post(`${baseURL}/keys/`, {
    headers: { authorization: `Token ${customer.token}` },
    data: { key },
  });
  expect(added.status()).toBe(201);
  return customer;
}

test('a card upgrade gets an invoice: Settings → Invoices lists it and downloads its PDF', async ({
  page,
  request,
  baseURL,
}) => {
  const customer = await customerWithLiteKey(request, baseURL!);
  await useSession(page, customer.token);
  await page.goto('/customer/my-keys');

  // Before paying: no orders, so no invoices (issue 21: one list of orders with their documents).
  await page.goto('/customer/my-keys?settings=invoices');
  const settings = page.getByRole('dialog', { name: 'Settings' });
  await expect(settings.getByText('No purchases yet.')).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(settings).toBeHidden();

  // Pay LITE → REGULAR with the sandbox's test card.
  const card = page.getByTestId('key-card');
  await card.getByRole('button', { name: 'Upgrade' }).click();
  // §2 dialog 5: Upgrade Options first.
  await page
    .getByRole('dialog', { name: 'Upgrade Options' })
    .getByRole('button', { name: /Upgrade License/ })
    .click();
  const dialog = page.getByRole('dialog', { name: 'Upgrade License' });
  await dialog.getByText('Upgrade to REGULAR').click();
  await dialog.getByLabel('Full name').fill('Erika Mustermann');
  await dialog.getByLabel('Email').fill('erika@example.com');
  await dialog.getByLabel('Address line 1').fill('Unter den Linden 1');
  await dialog.getByLabel('City').fill('Berlin');
  await dialog.getByLabel('Postal code').fill('10117');
  await dialog.getByLabel('Country').selectOption('DE');
  await dialog.getByLabel('Card number').fill('4242 4242 4242 4242');
  await dialog.getByLabel('Expiration date (MM / YY)').fill('12 / 34');
  await dialog.getByLabel('CVC').fill('123');
  await dialog.getByRole('button', { name: 'Pay $142.80' }).click();
  await expect(dialog.getByRole('heading', { name: 'License Upgrade Complete!' })).toBeVisible();
  await dialog.getByRole('button', { name: 'Close', exact: true }).last().click();
  await expect(dialog).toBeHidden();

  // Settings → Invoices: the order, paid, and under it its invoice, numbered for this year, with its total and a PDF.
  await page.goto('/customer/my-keys?settings=invoices');
  const order = page.getByRole('dialog', { name: 'Settings' }).getByTestId('order');
  await expect(order).toHaveCount(1);
  await expect(order).toContainText('License upgrade LITE to REGULAR');
  await expect(order).toContainText('Paid');
  const row = order.getByTestId('invoice');
  await expect(row).toHaveCount(1);
  const year = new Date().getUTCFullYear();
  await expect(row).toContainText(new RegExp(`Invoice ${year}-\\d{6}`));
  await expect(row).toContainText('$142.80');
  const number = /(\d{4}-\d{6})/.exec((await row.textContent()) ?? '')![1]!;

  const download = page.waitForEvent('download');
  await row.getByRole('button', { name: `Download invoice ${number} (PDF)` }).click();
  const file = await download;
  expect(file.suggestedFilename()).toBe(`keyport-invoice-${number}.pdf`);
  const bytes = await readFile((await file.path())!);
  expect(bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
  expect(bytes.subarray(-8).toString('latin1')).toContain('%%EOF');
});
