import { createCustomer, expect, mintKeys, test, useSession } from '../support/fixtures';

test('add an existing key: empty, unknown, already claimed, then a good key', async ({
  page,
  request,
  baseURL,
  allowConsoleErrors,
}) => {
  allowConsoleErrors(/status of (404|409)/);
  const [freshKey] = await mintKeys(request, baseURL!, 'PRO', 1);
  const customer = await createCustomer(request, baseURL!, 'adder');
  await useSession(page, customer.token);
  await page.goto('/customer/my-keys');
  await page.getByRole('button', { name: 'Add New Key' }).click();

  const dialog = page.getByRole('dialog', { name: 'Add Existing License Key' });
  const input = dialog.getByLabel('License key');
  const add = dialog.getByRole('button', { name: 'Add Key' });
  await expect(add).toBeDisabled();

  await input.fill('   ');
  await add.click();
  await expect(dialog.getByRole('alert')).toHaveText('Please enter a license key to import.');

  await input.fill('NOPE0-NOPE0-NOPE0-NOPE0-NOPE0');
  await add.click();
  await expect(dialog.getByRole('alert')).toHaveText('License key not found. Check the key and try again.');

  await input.fill('PR0A1-DEM0K-EY001-AURRA-PR001'); // the demo customer's key
  await add.click();
  await expect(dialog.getByRole('alert')).toHaveText('This license key is already registered to another account.');
  await expect(page).toHaveURL(/\/customer\/my-keys/); // a failure never signs the person out

  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await page.getByRole('button', { name: 'Add New Key' }).click();
  await expect(input).toHaveValue(''); // cleared on close

  await input.fill(`  ${freshKey}  `);
  await add.click();
  await expect(dialog).toBeHidden();
  await expect(page.getByTestId('key-card')).toHaveCount(1);
  await expect(page.getByText(freshKey!)).toBeVisible();
});

test('disconnect a key: confirm, toast, and the card leaves the list', async ({ page, request, baseURL }) => {
  const [key] = await mintKeys(request, baseURL!, 'LITE', 1);
  const customer = await createCustomer(request, baseURL!, 'disconnecter');
  await request.post(`${baseURL}/keys/`, { headers: { authorization: `Token ${customer.token}` }, data: { key } });
  await useSession(page, customer.token);
  await page.goto('/customer/my-keys');
  await expect(page.getByTestId('key-card')).toHaveCount(1);

  await page.getByRole('button', { name: 'More actions for LITE License' }).click();
  await page.getByRole('menuitem', { name: 'Disconnect' }).click();
  const dialog = page.getByRole('dialog', { name: 'Disconnect this key?' });
  await dialog.getByRole('button', { name: 'Disconnect' }).click();
  await expect(page.getByText('Store disconnected successfully')).toBeVisible();
  await expect(page.getByTestId('key-card')).toHaveCount(0);
  await expect(page.getByRole('heading', { name: 'No Keys Found' })).toBeVisible();
});

test('a failed disconnect says so and keeps the card', async ({ page, request, baseURL, allowConsoleErrors }) => {
  allowConsoleErrors(/status of 500/);
  const [key] = await mintKeys(request, baseURL!, 'REGULAR', 1);
  const customer = await createCustomer(request, baseURL!, 'disconnect-fails');
  await request.post(`${baseURL}/keys/`, { headers: { authorization: `Token ${customer.token}` }, data: { key } });
  await useSession(page, customer.token);
  await page.goto('/customer/my-keys');
  await page.route('**/keys/delete', (route) => route.fulfill({ status: 500, json: { error: 'boom' } }));
  await page.getByRole('button', { name: 'More actions for REGULAR License' }).click();
  await page.getByRole('menuitem', { name: 'Disconnect' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Disconnect' }).click();
  await expect(page.getByText('Failed to disconnect app')).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('key-card')).toHaveCount(1);
});
