import type { APIRequestContext } from '@playwright/test';
import { createCustomer, DEMO, expect, mintKeys, test, useSession } from '../support/fixtures';

/** Issue 21: dialogs that matter, the page and the search live in the URL; Back closes a dialog (ADR 042). */

async function customerWithKeys(request: APIRequestContext, baseURL: string, count: number) {
  const keys = await mintKeys(request, baseURL, 'REGULAR', count);
  const customer = await createCustomer(request, baseURL, 'history');
  for (const key of keys) {
    const added = await request.post(`${baseURL}/keys/`, {
      headers: { authorization: `Token ${customer.token}` },
      data: { key },
    });
    expect(added.status()).toBe(201);
  }
  return customer;
}

test.describe('at 1440 px', () => {
  test.use({ viewport: { width: 1440, height: 900 } });

  test('Back with the upgrade dialog open closes it and stays on the dashboard; Forward and a reload open it again', async ({
    page,
    login,
  }) => {
    await login(DEMO);
    await page.getByRole('radio', { name: 'LITE' }).click();
    await expect(page).toHaveURL(/\/customer\/my-keys\?type=LITE$/);
    const card = page.getByTestId('key-card').first();
    await card.getByRole('button', { name: /^Upgrade / }).click();
    await page
      .getByRole('dialog', { name: 'Upgrade Options' })
      .getByRole('button', { name: /Upgrade License/ })
      .click();
    const dialog = page.getByRole('dialog', { name: 'Upgrade License' });
    await dialog.getByText('Upgrade to PRO').click();
    await dialog.getByLabel('Full name').fill('Jane Doe');
    await expect(page).toHaveURL(/\?type=LITE&dialog=upgrade&key=\d+$/);

    await page.goBack();
    await expect(dialog).toBeHidden();
    await expect(page).toHaveURL(/\/customer\/my-keys\?type=LITE$/);
    await expect(page.getByRole('heading', { name: 'Keys', level: 1 })).toBeVisible();
    await expect(page.getByRole('radio', { name: 'LITE' })).toHaveAttribute('aria-checked', 'true');

    await page.goForward();
    await expect(dialog.getByRole('radio', { name: /Upgrade to PRO/ })).toBeVisible();
    await page.reload();
    await expect(dialog.getByRole('radio', { name: /Upgrade to PRO/ })).toBeVisible();
    // Opened by the URL itself: closing it keeps the person on the dashboard, with the filter.
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
    await expect(page).toHaveURL(/\/customer\/my-keys\?type=LITE$/);
  });

  test("the page stays in the URL: a key's details, then Back, return to page 2", async ({ page, login }) => {
    await login(DEMO);
    await page.getByRole('button', { name: 'Page 2' }).click();
    await expect(page).toHaveURL(/\?page=2$/);
    await page
      .getByRole('link', { name: /^Details of / })
      .first()
      .click();
    await expect(page).toHaveURL(/\/customer\/my-keys\/\d+$/);
    await page.goBack();
    await expect(page.getByRole('button', { name: 'Page 2' })).toHaveAttribute('aria-current', 'page');
    await expect(page.getByTestId('key-card')).toHaveCount(3);
    await page.reload();
    await expect(page.getByRole('button', { name: 'Page 2' })).toHaveAttribute('aria-current', 'page');
  });

  test('a newly added key is shown on its page and highlighted, even from a search that hides it', async ({
    page,
    request,
    baseURL,
  }) => {
    const customer = await customerWithKeys(request, baseURL!, 6);
    const [fresh] = await mintKeys(request, baseURL!, 'LITE', 1);
    await useSession(page, customer.token);
    await page.goto('/customer/my-keys?q=no-such-store');
    await expect(page.getByRole('heading', { name: 'No Results Found' })).toBeVisible();
    await page.getByRole('button', { name: 'Add New Key' }).first().click();
    const dialog = page.getByRole('dialog', { name: 'Add Existing License Key' });
    await dialog.getByLabel('License key').fill(fresh!);
    await dialog.getByRole('button', { name: 'Add Key' }).click();

    // The seventh key: page 2, the search cleared, the card marked "New".
    await expect(page).toHaveURL(/\/customer\/my-keys\?page=2$/);
    const added = page.locator('[data-testid="key-card"][data-highlighted]');
    await expect(added).toHaveCount(1);
    await expect(added).toContainText(fresh!);
    await expect(added.getByText('New', { exact: true })).toBeVisible();
    await expect(added).toBeInViewport();
    await expect(page.getByRole('searchbox', { name: 'Search keys' })).toHaveValue('');
  });
});

test.describe('at 390 px', () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test('Back with the full-screen Edit Connection panel open closes it and stays on the dashboard', async ({
    page,
    login,
  }) => {
    await login(DEMO);
    await page.getByRole('button', { name: 'Edit Connection' }).first().click();
    const panel = page.getByRole('dialog', { name: 'Edit Connection' });
    await expect(panel.getByLabel('Website URL')).toBeFocused();
    await page.goBack();
    await expect(panel).toBeHidden();
    await expect(page).toHaveURL(/\/customer\/my-keys$/);
    await expect(page.getByRole('heading', { name: 'Keys', level: 1 })).toBeVisible();
  });

  test('Quick Actions live in the user menu: Update Theme, Upgrade Files and Sell Your Store', async ({
    page,
    login,
  }) => {
    await login(DEMO);
    await expect(page.getByRole('navigation', { name: 'Quick Actions' })).toBeHidden();
    await page.getByRole('button', { name: 'User menu' }).click();
    await expect(page.getByRole('menuitem', { name: 'Update Theme' })).toBeVisible();
    await expect(page.getByRole('menuitem', { name: /Sell Your Store/ })).toHaveAttribute('target', '_blank');
    await page.getByRole('menuitem', { name: 'Upgrade Files' }).click();
    const dialog = page.getByRole('dialog', { name: 'Upgrade your theme file' });
    await expect(dialog).toBeVisible();
    await page.goBack();
    await expect(dialog).toBeHidden();
    await expect(page).toHaveURL(/\/customer\/my-keys$/);

    await page.getByRole('button', { name: 'User menu' }).click();
    await page.getByRole('menuitem', { name: 'Update Theme' }).click();
    await expect(page).toHaveURL(/\/customer\/update_file$/);
  });

  test('Marketplace and AI Store Builder lead back to the keys', async ({ page, login }) => {
    await login(DEMO);
    for (const path of ['/customer/marketplace', '/customer/ai-store']) {
      await page.goto(path);
      await page.getByRole('link', { name: 'Back to my keys' }).click();
      await expect(page).toHaveURL(/\/customer\/my-keys$/);
    }
  });
});
