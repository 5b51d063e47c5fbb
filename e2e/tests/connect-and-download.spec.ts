import { execFileSync } from 'node:child_process';
import type { APIRequestContext, Page } from '@playwright/test';
import { createCustomer, DEMO, expect, mintKeys, test, useSession } from '../support/fixtures';

test.use({ viewport: { width: 1440, height: 900 } });

/** Every PUT /keys/ (save domains and mint a token) the page sends. */
function countDomainSaves(page: Page) {
  const saves: unknown[] = [];
  page.on('request', (request) => {
    if (request.method() === 'PUT' && new URL(request.url()).pathname === '/keys/') saves.push(request.postDataJSON());
  });
  return saves;
}

/** The domains a theme token whitelists (its payload, read without verifying: the server tests verify it). */
const whitelistOf = (token: string) =>
  (JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString('utf8')) as { domains: string[] }).domains;

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

test('the Connect Your Store wizard, end to end: one save, at Generate Token', async ({
  page,
  request,
  baseURL,
  context,
}) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const customer = await customerWithKey(request, baseURL!, 'PRO');
  const saves = countDomainSaves(page);
  await useSession(page, customer.token);
  await page.goto('/customer/my-keys');
  await page.getByRole('button', { name: 'Connect Store' }).click();

  const wizard = page.getByRole('dialog', { name: 'Connect Your Store' });
  await expect(wizard.getByRole('link', { name: /Shopify App Store/ })).toHaveAttribute('target', '_blank');
  await wizard.getByRole('button', { name: 'Skip App Install' }).click();

  // Domain step: the §5 messages under the field, then a valid domain. Each step starts with focus on its first control.
  const field = wizard.getByLabel('Store domain');
  await expect(field).toBeFocused();
  await wizard.getByRole('button', { name: 'Next' }).click();
  await expect(wizard.getByRole('alert')).toHaveText('Please enter your Shopify store domain');
  await expect(field).toHaveAttribute('aria-invalid', 'true');
  await expect(field).toHaveAccessibleDescription('Please enter your Shopify store domain');
  await field.fill('Bad_Name!');
  await expect(field).not.toHaveAttribute('aria-invalid'); // a stale error goes as the person types
  await wizard.getByRole('button', { name: 'Next' }).click();
  await expect(wizard.getByRole('alert')).toHaveText(
    'Please enter a valid Shopify store domain (bad_name!.myshopify.com)',
  );
  await field.fill('https://Harbor-Goods/');
  await wizard.getByRole('button', { name: 'Next' }).click();

  // Auth Token step: nothing was saved by Next.
  await expect(wizard.getByText('harbor-goods.myshopify.com')).toBeVisible();
  await expect(wizard.getByRole('button', { name: 'Complete Setup' })).toBeDisabled();
  expect(saves).toHaveLength(0);
  await expect(wizard.getByRole('button', { name: 'Generate Token' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(wizard.getByRole('button', { name: 'Copy token' })).toBeFocused();
  const token = (await wizard.getByTestId('wizard-token').textContent())!;
  expect(token.split('.')).toHaveLength(3);
  expect(saves).toEqual([
    { key: customer.key, myshopify: 'harbor-goods.myshopify.com', main_url: '', secondary_url: '' },
  ]);
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
  expect(saves).toHaveLength(1);
  // The token shown is the key's current token: the one the server hands back to its owner.
  const current = await request.post(`${baseURL}/keys/token`, {
    headers: { authorization: `Token ${customer.token}` },
    data: { key: customer.key },
  });
  expect(((await current.json()) as { tokentheme: string }).tokentheme).toBe(token);
});

test('Cancel in the wizard leaves the key exactly as it was', async ({ page, request, baseURL }) => {
  const customer = await customerWithKey(request, baseURL!, 'LITE');
  const auth = { authorization: `Token ${customer.token}` };
  const saves = countDomainSaves(page);
  await useSession(page, customer.token);
  await page.goto('/customer/my-keys');
  const card = page.getByTestId('key-card');
  const wizard = page.getByRole('dialog', { name: 'Connect Your Store' });

  // Cancel on the Auth Token step, after a valid domain and Next, and on the Domain step.
  await card.getByRole('button', { name: 'Connect Store' }).click();
  await wizard.getByRole('button', { name: 'Skip App Install' }).click();
  await wizard.getByLabel('Store domain').fill('first-try');
  await wizard.getByRole('button', { name: 'Next' }).click();
  await expect(wizard.getByRole('button', { name: 'Generate Token' })).toBeVisible();
  await wizard.getByRole('button', { name: 'Cancel' }).click();
  await expect(wizard).toBeHidden();
  await card.getByRole('button', { name: 'Connect Store' }).click();
  await wizard.getByRole('button', { name: 'Skip App Install' }).click();
  await expect(wizard.getByText('Your connected stores')).toHaveCount(0);
  await expect(wizard.getByLabel('Store domain')).toHaveValue(''); // Cancel reset the wizard
  await wizard.getByLabel('Store domain').fill('second-try');
  await wizard.getByRole('button', { name: 'Cancel' }).click();
  await expect(wizard).toBeHidden();

  expect(saves).toHaveLength(0);
  await expect(card.getByText('Not connected', { exact: true })).toBeVisible();
  await expect(card.getByTestId('card-domain')).toHaveText('None');
  const keys = (await (await request.get(`${baseURL}/keys/`, { headers: auth })).json()) as {
    myshopify: string | null;
  }[];
  expect(keys.map((key) => key.myshopify)).toEqual([null]);
  const stores = await (await request.get(`${baseURL}/auth/user-stores`, { headers: auth })).json();
  expect(stores).toEqual({ stores: [] });
  const token = await request.post(`${baseURL}/keys/token`, { headers: auth, data: { key: customer.key } });
  expect(await token.json()).toEqual({ tokentheme: null });
});

test('edit connection: errors and the conversion notice sit under their fields, then download with the token inside', async ({
  page,
  request,
  baseURL,
}, testInfo) => {
  const customer = await customerWithKey(request, baseURL!, 'REGULAR');
  await useSession(page, customer.token);
  await page.goto('/customer/my-keys');
  await page.getByRole('button', { name: 'Enter domains' }).click();

  const panel = page.getByRole('dialog', { name: 'Connect to Store' });
  const website = panel.getByLabel('Website URL');
  const myshopify = panel.getByLabel('Shopify-platform URL (myshopify)');
  await expect(panel.getByText(/shows its domain as "None"/)).toBeVisible();
  await expect(website).toBeFocused();
  await expect(panel.getByText('Authentication token not available. Please generate token first.')).toHaveCount(1);
  await expect(panel.getByText(/Click to copy/)).toHaveCount(0);

  // 'At least one domain' sits under the first field, and goes once any field has a domain.
  await panel.getByRole('button', { name: 'Save Domains & Generate Token' }).click();
  await expect(website).toHaveAttribute('aria-invalid', 'true');
  await expect(website).toHaveAccessibleDescription(/^Please enter at least one domain/);
  await myshopify.fill('harbor-goods');
  await expect(website).not.toHaveAttribute('aria-invalid');
  await expect(panel.getByText('Please enter at least one domain')).toHaveCount(0);

  // A bad secondary domain: its error is under it, and goes with it when it is removed.
  await panel.getByRole('button', { name: 'Add Secondary Domain' }).click();
  const secondary = panel.getByLabel('Secondary Domain', { exact: true });
  await secondary.fill('x.invalid');
  await panel.getByRole('button', { name: 'Save Domains & Generate Token' }).click();
  await expect(secondary).toHaveAttribute('aria-invalid', 'true');
  await expect(secondary).toHaveAccessibleDescription('Please enter a valid domain (x.invalid)');
  await panel.getByRole('button', { name: 'Remove secondary domain' }).click();
  await expect(panel.getByText('Please enter a valid domain (x.invalid)')).toHaveCount(0);
  await panel.getByRole('button', { name: 'Add Secondary Domain' }).click();
  await expect(secondary).toHaveValue('');
  await expect(secondary).not.toHaveAttribute('aria-invalid');

  await website.fill('https://Shop.Harbor-Goods.co.uk/');
  await secondary.fill('harbor-goods.com');
  await panel.getByRole('button', { name: 'Save Domains & Generate Token' }).click();
  await expect(panel.getByTestId('token-box')).toBeVisible();

  // The notice is under the Website URL field (not a toast), which shows the normalised value.
  const notice = 'Converted "shop.harbor-goods.co.uk" to "harbor-goods.co.uk". Both domains will be whitelisted.';
  await expect(website).toHaveValue('harbor-goods.co.uk');
  await expect(website).toHaveAccessibleDescription(new RegExp(`^${notice.replace(/[.()]/g, '\\$&')}`));
  await expect(myshopify).toHaveValue('harbor-goods.myshopify.com');
  await expect(page.locator('[data-sonner-toast]').filter({ hasText: 'Converted' })).toHaveCount(0);
  await expect(panel.getByText(/shows its domain as "None"/)).toHaveCount(0); // saved: the warning is stale
  await expect(panel.getByText('Authentication token not available. Please generate token first.')).toHaveCount(0);

  const currentToken = async () => {
    const response = await request.post(`${baseURL}/keys/token`, {
      headers: { authorization: `Token ${customer.token}` },
      data: { key: customer.key },
    });
    return ((await response.json()) as { tokentheme: string }).tokentheme;
  };
  const tokentheme = await currentToken();
  expect(whitelistOf(tokentheme)).toEqual(
    expect.arrayContaining(['harbor-goods.co.uk', 'shop.harbor-goods.co.uk', 'harbor-goods.com']),
  );
  await expect(panel.getByTestId('token-box')).toContainText(tokentheme.slice(0, 12));
  await expect(panel.getByTestId('token-box')).not.toContainText(tokentheme.slice(20, 60));

  // Saving again as shown keeps the subdomain the person typed on the whitelist.
  await panel.getByRole('button', { name: 'Save Domains & Generate Token' }).click();
  await expect.poll(currentToken).not.toBe(tokentheme);
  const again = await currentToken();
  expect(whitelistOf(again)).toEqual(expect.arrayContaining(['shop.harbor-goods.co.uk']));
  await expect(panel.getByTestId('token-box')).toContainText(again.slice(0, 12));

  const downloadPromise = page.waitForEvent('download');
  await panel.getByRole('button', { name: 'Download Theme' }).click();
  const download = await downloadPromise;
  expect(download.suggestedFilename()).toMatch(/^[a-z0-9-]+-regular-[\w.-]+\.zip$/);
  const file = testInfo.outputPath(download.suggestedFilename());
  await download.saveAs(file);
  execFileSync('unzip', ['-tq', file]);
  const settings = execFileSync('unzip', ['-p', file, '*config/settings_data.json']).toString('utf8');
  expect(settings).toContain(again);

  await page.keyboard.press('Escape');
  const card = page.getByTestId('key-card');
  await expect(card.getByTestId('card-domain')).toHaveText('https://harbor-goods.co.uk');
});

test('with no SETUP_GUIDE_VIDEO_URL the panel shows no video player', async ({ page, request, baseURL }) => {
  const config = await (await request.get(`${baseURL}/config`)).json();
  expect(config.links.setupGuideVideoUrl).toBeNull(); // the e2e server runs without one
  const customer = await customerWithKey(request, baseURL!, 'LITE');
  await useSession(page, customer.token);
  await page.goto('/customer/my-keys');
  await page.getByRole('button', { name: 'Enter domains' }).click();
  const panel = page.getByRole('dialog', { name: 'Connect to Store' });
  await expect(panel.getByRole('heading', { name: '1. Setup URLs' })).toBeVisible();
  await expect(panel.getByRole('heading', { name: 'Setup guide' })).toHaveCount(0);
  await expect(panel.getByRole('button', { name: /Watch/ })).toHaveCount(0);
  await expect(panel.locator('iframe')).toHaveCount(0);
});

test("the card's Download button downloads the theme with the token inside", async ({
  page,
  request,
  baseURL,
}, testInfo) => {
  const customer = await customerWithKey(request, baseURL!, 'PRO');
  const saved = await request.put(`${baseURL}/keys/`, {
    headers: { authorization: `Token ${customer.token}` },
    data: { key: customer.key, myshopify: 'card-download' },
  });
  const { tokentheme } = (await saved.json()) as { tokentheme: string };
  await useSession(page, customer.token);
  await page.goto('/customer/my-keys');

  const downloadPromise = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Download theme for card-download' }).click();
  const download = await downloadPromise;
  await expect(page.getByRole('dialog')).toHaveCount(0); // it downloads; it does not open the Edit panel
  const file = testInfo.outputPath(download.suggestedFilename());
  await download.saveAs(file);
  expect(execFileSync('unzip', ['-p', file, '*config/settings_data.json']).toString('utf8')).toContain(tokentheme);
  await expect(page.getByText(/downloaded with your token inside/)).toBeVisible();
});

test('Download on a connected key without a token says so once, with one way on', async ({ page, login }) => {
  await login(DEMO); // the seeded keys are connected but have no token yet
  const download = page.getByRole('button', { name: 'Download theme for cedarwood-coffee' });
  await download.click();
  const panel = page.getByRole('dialog', { name: 'Edit Connection' });
  await expect(panel.getByText('Authentication token not available. Please generate token first.')).toHaveCount(1);
  await expect(page.getByText('Authentication token not available. Please generate token first.')).toHaveCount(1);
  await expect(panel.getByText(/Click to copy/)).toHaveCount(0);
  await expect(panel.getByRole('button', { name: /Setup URLs|current token|Download Theme/ })).toHaveCount(0);
  // The one way on: save the domains, which generates the token.
  await expect(panel.getByRole('button', { name: 'Save Domains & Generate Token' })).toBeVisible();
  await expect(panel.getByLabel('Website URL')).toHaveValue('cedarwood-coffee.com');
  await page.keyboard.press('Escape');
  await expect(panel).toBeHidden();
  await expect(download).toBeFocused();
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
  await page.getByRole('button', { name: 'Edit Connection' }).click();
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
