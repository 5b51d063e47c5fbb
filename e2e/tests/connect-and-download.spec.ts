import { execFileSync } from 'node:child_process';
import type { APIRequestContext } from '@playwright/test';
import { createCustomer, DEMO, expect, mintKeys, test, useSession } from '../support/fixtures';

test.use({ viewport: { width: 1440, height: 900 } });

async function customerWithKey(request: APIRequestContext, baseURL: string, tier: 'LITE' | 'REGULAR' | 'PRO') {
  const [key] = await mintKeys(request, baseURL, tier, 1);
  const customer = await createCustomer(request, baseURL, `connect-${tier.toLowerCase()}`);
  const added = await request.post(`${baseURL}/keys/`, {
    headers: { authorization: `Token ${customer.token}` },
    data: { key },
  });
  expect(added.status()).toBe(201);
  return { ...customer, key: key! };
}

test('the Connect Your Store wizard, end to end', async ({ page, request, baseURL, context }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const customer = await customerWithKey(request, baseURL!, 'PRO');
  await useSession(page, customer.token);
  await page.goto('/customer/my-keys');
  await page.getByRole('button', { name: 'Connect Store' }).click();

  const wizard = page.getByRole('dialog', { name: 'Connect Your Store' });
  await expect(wizard.getByRole('link', { name: /Shopify App Store/ })).toHaveAttribute('target', '_blank');
  await wizard.getByRole('button', { name: 'Skip App Install' }).click();

  // Domain step: the §5 messages, then a valid domain.
  await wizard.getByRole('button', { name: 'Next' }).click();
  await expect(wizard.getByRole('alert')).toHaveText('Please enter your Shopify store domain');
  await wizard.getByLabel('Store domain').fill('Bad_Name!');
  await wizard.getByRole('button', { name: 'Next' }).click();
  await expect(wizard.getByRole('alert')).toHaveText(
    'Please enter a valid Shopify store domain (bad_name!.myshopify.com)',
  );
  await wizard.getByLabel('Store domain').fill('https://Harbor-Goods/');
  await wizard.getByRole('button', { name: 'Next' }).click();

  // Auth Token step.
  await expect(wizard.getByText('harbor-goods.myshopify.com')).toBeVisible();
  await expect(wizard.getByRole('button', { name: 'Complete Setup' })).toBeDisabled();
  await wizard.getByRole('button', { name: 'Generate Token' }).click();
  const token = (await wizard.getByTestId('wizard-token').textContent())!;
  expect(token.split('.')).toHaveLength(3);
  await wizard.getByRole('button', { name: 'Copy token' }).click();
  await expect(wizard.getByRole('button', { name: 'Token copied' })).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(token);
  await expect(wizard.getByRole('button', { name: 'Copy token' })).toBeVisible({ timeout: 5_000 }); // back after 3 s
  await wizard.getByRole('button', { name: 'Complete Setup' }).click();
  await expect(wizard).toBeHidden();
  await expect(page.getByText('Store connected successfully')).toBeVisible();
  const card = page.getByTestId('key-card');
  await expect(card.getByTestId('card-domain')).toHaveText('harbor-goods.myshopify.com');
  await expect(card.getByText('Connected', { exact: true })).toBeVisible();
});

test('edit connection with a subdomain shows the conversion notice, then download the theme with the token inside', async ({
  page,
  request,
  baseURL,
}, testInfo) => {
  const customer = await customerWithKey(request, baseURL!, 'REGULAR');
  await useSession(page, customer.token);
  await page.goto('/customer/my-keys');
  await page.getByRole('button', { name: 'Enter domains' }).click();

  const panel = page.getByRole('dialog', { name: 'Connect to Store' });
  await expect(panel.getByText(/shows its domain as "None"/)).toBeVisible();
  await expect(panel.getByLabel('Website URL')).toBeFocused();
  await panel.getByRole('button', { name: 'Save Domains & Generate Token' }).click();
  await expect(panel.getByRole('alert')).toHaveText('Please enter at least one domain');

  await panel.getByLabel('Website URL').fill('https://Shop.Harbor-Goods.co.uk/');
  await panel.getByLabel('Shopify-platform URL (myshopify)').fill('harbor-goods');
  await panel.getByRole('button', { name: 'Add Secondary Domain' }).click();
  await panel.getByLabel('Secondary Domain', { exact: true }).fill('harbor-goods.com');
  await panel.getByRole('button', { name: 'Save Domains & Generate Token' }).click();
  await expect(
    page
      .getByText('Converted "shop.harbor-goods.co.uk" to "harbor-goods.co.uk". Both domains will be whitelisted.')
      .first(),
  ).toBeVisible();

  await expect(panel.getByTestId('token-box')).toBeVisible();
  const tokenResponse = await request.post(`${baseURL}/keys/token`, {
    headers: { authorization: `Token ${customer.token}` },
    data: { key: customer.key },
  });
  const { tokentheme } = (await tokenResponse.json()) as { tokentheme: string };
  await expect(panel.getByTestId('token-box')).toContainText(tokentheme.slice(0, 12));
  await expect(panel.getByTestId('token-box')).not.toContainText(tokentheme.slice(20, 60));

  const downloadPromise = page.waitForEvent('download');
  await panel.getByRole('button', { name: 'Download Theme' }).click();
  const download = await downloadPromise;
  expect(download.suggestedFilename()).toMatch(/^[a-z0-9-]+-regular-[\w.-]+\.zip$/);
  const file = testInfo.outputPath(download.suggestedFilename());
  await download.saveAs(file);
  execFileSync('unzip', ['-tq', file]);
  const settings = execFileSync('unzip', ['-p', file, '*config/settings_data.json']).toString('utf8');
  expect(settings).toContain(tokentheme);

  await page.keyboard.press('Escape');
  const card = page.getByTestId('key-card');
  await expect(card.getByTestId('card-domain')).toHaveText('https://harbor-goods.co.uk');
});

test('a connected key without a token asks for one before downloading', async ({ page, login }) => {
  await login(DEMO); // the seeded keys are connected but have no token yet
  await page.getByRole('button', { name: 'Download theme for cedarwood-coffee' }).click();
  const panel = page.getByRole('dialog', { name: 'Edit Connection' });
  await expect(panel.getByText('Authentication token not available. Please generate token first.')).toBeVisible();
  await panel.getByRole('button', { name: 'Go to Setup URLs' }).click();
  await expect(panel.getByLabel('Website URL')).toHaveValue('cedarwood-coffee.com');
});

test('download fallbacks: without the token, then the manual link', async ({
  page,
  request,
  baseURL,
  allowConsoleErrors,
}) => {
  allowConsoleErrors(/status of 50[03]/);
  const customer = await customerWithKey(request, baseURL!, 'PRO');
  const saved = await request.put(`${baseURL}/keys/`, {
    headers: { authorization: `Token ${customer.token}` },
    data: { key: customer.key, myshopify: 'fallback-store' },
  });
  const { tokentheme } = (await saved.json()) as { tokentheme: string };
  await useSession(page, customer.token);
  await page.goto('/customer/my-keys');
  await page.getByRole('button', { name: /Download theme for/ }).click();
  const panel = page.getByRole('dialog', { name: 'Edit Connection' });

  await page.route('**/api/download-with-token', (route) => route.fulfill({ status: 503, json: { error: 'down' } }));
  const downloadPromise = page.waitForEvent('download');
  await panel.getByRole('button', { name: 'Download Theme' }).click();
  await expect(page.getByText('Download failed', { exact: true })).toBeVisible();
  await expect(page.getByText(/downloaded without your token/)).toBeVisible();
  const download = await downloadPromise;
  const file = test.info().outputPath('without-token.zip');
  await download.saveAs(file);
  expect(execFileSync('unzip', ['-p', file, '*config/settings_data.json']).toString('utf8')).not.toContain(tokentheme);

  await page.route('**/api/proxy_dl', (route) => route.fulfill({ status: 500, json: { error: 'down' } }));
  await panel.getByRole('button', { name: 'Download Theme' }).click();
  await expect(panel.getByText('Download failed completely...')).toBeVisible();
  await expect(panel.getByRole('link', { name: 'Download manually' })).toHaveAttribute(
    'href',
    /\/api\/releases\/\d+\/download\?key=\d+&user=\d+&expires=\d+&sig=/,
  );
});
