import { DEMO, expect, TEAM, test } from '../support/fixtures';

test.use({ viewport: { width: 1440, height: 900 } });

test('the updates feed shows, and falls back to the saved copy when the call fails', async ({
  page,
  login,
  allowConsoleErrors,
}) => {
  allowConsoleErrors(/status of 503/);
  await login(DEMO);
  const feed = page.getByTestId('updates-list');
  await expect(feed.getByRole('listitem').first()).toBeVisible();
  const titles = await feed.getByRole('heading').allTextContents();
  expect(titles.length).toBeGreaterThan(0);

  await page.route('**/staff/homepage-settings*', (route) => route.fulfill({ status: 503, json: { error: 'down' } }));
  // Without the session cookie the page comes without its first data (ADR 045): the dashboard asks for the feed.
  await page.context().clearCookies();
  await page.reload();
  await expect(page.getByText('Showing the updates saved on this device')).toBeVisible();
  await expect(feed.getByRole('heading')).toHaveText(titles);
});

test('customers see Marketplace and AI Store Builder disabled with Soon', async ({ page, login }) => {
  await login(DEMO);
  const panel = page.getByRole('navigation', { name: 'Quick Actions' });
  await expect(panel).toBeVisible();
  await expect(panel.getByRole('link', { name: 'Marketplace' })).toHaveCount(0);
  await expect(panel.getByText('Marketplace').locator('..')).toHaveAttribute('aria-disabled', 'true');
  await expect(panel.getByText('AI Store Builder').locator('..')).toHaveAttribute('aria-disabled', 'true');
  await expect(panel.getByText('Soon')).toHaveCount(2);
  await expect(panel.getByRole('link', { name: /Sell Your Store/ })).toHaveAttribute('target', '_blank');
  await page.goto('/customer/marketplace');
  await expect(page.getByText('Marketplace is available to team members only for now.')).toBeVisible();
});

test('team members can open Marketplace and AI Store Builder', async ({ page, login }) => {
  await login(TEAM);
  const panel = page.getByRole('navigation', { name: 'Quick Actions' });
  await panel.getByRole('link', { name: 'Marketplace' }).click();
  await expect(page).toHaveURL(/\/customer\/marketplace$/);
  await expect(page.getByRole('heading', { name: 'Marketplace for team members' })).toBeVisible();
  await page.goBack();
  await panel.getByRole('link', { name: 'AI Store Builder' }).click();
  await expect(page).toHaveURL(/\/customer\/ai-store$/);
});

test('the quick actions panel is hidden below the xl width; team members reach their features from the user menu', async ({
  page,
  login,
}) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await login(DEMO);
  await expect(page.getByRole('navigation', { name: 'Quick Actions' })).toBeHidden();
  await page.getByRole('button', { name: 'User menu' }).click();
  await expect(page.getByRole('menuitem', { name: 'Settings' })).toBeVisible();
  await expect(page.getByRole('menuitem', { name: 'Marketplace' })).toHaveCount(0);
  await page.keyboard.press('Escape');
  await expect(page.getByRole('button', { name: 'User menu' })).toBeFocused();

  await page.getByRole('button', { name: 'User menu' }).click();
  await page.getByRole('menuitem', { name: 'Sign out' }).click();
  await login(TEAM);
  await expect(page.getByRole('navigation', { name: 'Quick Actions' })).toBeHidden();
  await page.getByRole('button', { name: 'User menu' }).click();
  await page.getByRole('menuitem', { name: 'Marketplace' }).click();
  await expect(page).toHaveURL(/\/customer\/marketplace$/);
  await expect(page.getByRole('heading', { name: 'Marketplace for team members' })).toBeVisible();
  await page.getByRole('button', { name: 'User menu' }).click();
  await page.getByRole('menuitem', { name: 'AI Store Builder' }).click();
  await expect(page).toHaveURL(/\/customer\/ai-store$/);
});

test("pages that do not exist show the app's own not-found inside the shell", async ({ page, login }) => {
  await login(DEMO);
  for (const path of ['/customer/no_such_page', '/customer/upgrade_file/12']) {
    await page.goto(path);
    await expect(page.getByRole('heading', { name: 'Page not found', level: 1 })).toBeVisible();
    await expect(page.getByRole('button', { name: 'User menu' })).toBeVisible();
    await expect(page.getByRole('main')).toHaveCount(1);
  }
  await page.getByRole('link', { name: 'Go to my keys' }).click();
  await expect(page).toHaveURL(/\/customer\/my-keys$/);
});

test('?settings=invoices opens settings on the invoices tab and the parameter is removed', async ({ page, login }) => {
  await login(DEMO);
  await page.goto('/customer/my-keys?settings=invoices');
  const dialog = page.getByRole('dialog', { name: 'Settings' });
  await expect(dialog.getByRole('tab', { name: 'Invoices' })).toHaveAttribute('aria-selected', 'true');
  // The demo user's two orders of the legacy store, once each (issue 21: one list of orders).
  await expect(dialog.getByTestId('order')).toHaveCount(2);
  await expect(dialog.getByTestId('order').first()).toContainText('Theme license');
  await expect(page).toHaveURL(/\/customer\/my-keys$/);
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();

  await page.evaluate(() => (window as Window & { openSettingsDialog?: () => void }).openSettingsDialog?.());
  await expect(dialog.getByRole('tab', { name: 'Profile' })).toHaveAttribute('aria-selected', 'true');
  // The demo customer's newest order is 8 months old: support runs until 4 months from now.
  await expect(dialog.getByTestId('support-status')).toHaveText(/^Support active until \d{4}-\d{2}-\d{2}$/);
});

test('a wrong current password shows under its field and goes when the person types again', async ({
  page,
  login,
  allowConsoleErrors,
}) => {
  allowConsoleErrors(/status of 400/);
  await login(DEMO);
  await page.getByRole('button', { name: 'User menu' }).click();
  await page.getByRole('menuitem', { name: 'Settings' }).click();
  const dialog = page.getByRole('dialog', { name: 'Settings' });
  await dialog.getByRole('tab', { name: 'Password' }).click();
  const current = dialog.getByLabel('Current password');
  await current.fill('not-the-password');
  await dialog.getByLabel('New password', { exact: true }).fill('another-password-1');
  await dialog.getByLabel('Repeat new password').fill('another-password-1');
  await dialog.getByRole('button', { name: 'Change password' }).click();
  await expect(current).toHaveAttribute('aria-invalid', 'true');
  await expect(current).toHaveAccessibleDescription('Your current password is not correct.');
  await current.pressSequentially('!');
  await expect(current).not.toHaveAttribute('aria-invalid');
  await expect(dialog.getByText('Your current password is not correct.')).toHaveCount(0);
});
