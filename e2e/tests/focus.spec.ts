import type { APIRequestContext } from '@playwright/test';
import { createCustomer, DEMO, expect, mintKeys, test, useSession } from '../support/fixtures';

test.use({ viewport: { width: 1440, height: 900 } });

async function customerWithKeys(request: APIRequestContext, baseURL: string, count: number) {
  const keys = await mintKeys(request, baseURL, 'REGULAR', count);
  const customer = await createCustomer(request, baseURL, 'focus');
  for (const key of keys) {
    await request.post(`${baseURL}/keys/`, { headers: { authorization: `Token ${customer.token}` }, data: { key } });
  }
  return customer;
}

test('focus returns to the button that opened a dialog, a menu-opened dialog or the panel', async ({ page, login }) => {
  await login(DEMO);
  const cases = [
    { opener: page.getByRole('button', { name: 'Add New Key' }), dialog: 'Add Existing License Key' },
    { opener: page.getByRole('button', { name: 'Edit Connection' }).first(), dialog: 'Edit Connection' },
    { opener: page.getByRole('button', { name: 'Connect Store' }).first(), dialog: 'Connect Your Store' },
  ];
  for (const { opener, dialog } of cases) {
    for (const close of ['Escape', 'Close'] as const) {
      await opener.click();
      const open = page.getByRole('dialog', { name: dialog });
      await expect(open).toBeVisible();
      if (close === 'Escape') await page.keyboard.press('Escape');
      else await open.getByRole('button', { name: 'Close' }).click();
      await expect(open).toBeHidden();
      await expect(opener, `${dialog}, closed with ${close}`).toBeFocused();
    }
  }

  // From a menu item: focus goes back to the menu's button.
  const userMenu = page.getByRole('button', { name: 'User menu' });
  await userMenu.click();
  await page.getByRole('menuitem', { name: 'Settings' }).click();
  await expect(page.getByRole('dialog', { name: 'Settings' })).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(page.getByRole('dialog', { name: 'Settings' })).toBeHidden();
  await expect(userMenu).toBeFocused();

  const cardMenu = page.getByRole('button', { name: 'More actions for aurora-outfitters' });
  await cardMenu.click();
  await page.getByRole('menuitem', { name: 'Disconnect' }).click();
  const confirm = page.getByRole('dialog', { name: 'Disconnect this key?' });
  await confirm.getByRole('button', { name: 'Cancel' }).click();
  await expect(confirm).toBeHidden();
  await expect(cardMenu).toBeFocused();
});

test('when the opener has gone, focus goes to the nearest sensible place', async ({ page, request, baseURL }) => {
  const customer = await customerWithKeys(request, baseURL!, 2);
  await useSession(page, customer.token);
  await page.goto('/customer/my-keys');
  const cards = page.getByTestId('key-card');
  await expect(cards).toHaveCount(2);

  // Saving the domains turns the card's "Enter domains" into "Download": focus goes to the card's first action.
  const first = cards.first();
  await first.getByRole('button', { name: 'Enter domains' }).click();
  const panel = page.getByRole('dialog', { name: 'Connect to Store' });
  // The panel puts focus in its first field once it has loaded: wait for that, or typing can land there.
  await expect(panel.getByLabel('Website URL')).toBeFocused();
  await panel.getByLabel('Shopify-platform URL (myshopify)').fill('focus-store');
  await expect(panel.getByLabel('Shopify-platform URL (myshopify)')).toHaveValue('focus-store');
  await panel.getByRole('button', { name: 'Save Domains & Generate Token' }).click();
  await expect(panel.getByTestId('token-box')).toBeVisible();
  // (Behind the modal panel the page is aria-hidden: find the card's new button by its text.)
  await expect(first.locator('button', { hasText: 'Edit Connection' })).toBeAttached();
  await page.keyboard.press('Escape');
  await expect(panel).toBeHidden();
  await expect(first.getByRole('button', { name: 'Edit Connection' })).toBeFocused();

  // A disconnected key's card leaves the list with its menu: focus goes to the Keys heading.
  const second = cards.nth(1);
  await second.getByRole('button', { name: /More actions for/ }).click();
  await page.getByRole('menuitem', { name: 'Disconnect' }).click();
  await page.getByRole('dialog', { name: 'Disconnect this key?' }).getByRole('button', { name: 'Disconnect' }).click();
  await expect(cards).toHaveCount(1);
  await expect(page.getByRole('heading', { name: 'Keys', level: 1 })).toBeFocused();
});

test('the type filter is a radio group: one tab stop, the arrow keys move and select', async ({ page, login }) => {
  await login(DEMO);
  const group = page.getByRole('radiogroup', { name: 'License type' });
  await expect(group.getByRole('radio')).toHaveCount(4);
  await page.getByRole('searchbox', { name: 'Search keys' }).focus();
  await page.keyboard.press('Tab');
  await expect(group.getByRole('radio', { name: 'ALL' })).toBeFocused();

  await page.keyboard.press('ArrowRight');
  await expect(group.getByRole('radio', { name: 'PRO' })).toBeFocused();
  await expect(group.getByRole('radio', { name: 'PRO' })).toHaveAttribute('aria-checked', 'true');
  await expect(page.getByTestId('key-card')).toHaveCount(3);
  await page.keyboard.press('ArrowDown');
  await expect(group.getByRole('radio', { name: 'REGULAR' })).toHaveAttribute('aria-checked', 'true');
  await page.keyboard.press('ArrowLeft');
  await page.keyboard.press('ArrowLeft');
  await expect(group.getByRole('radio', { name: 'ALL' })).toHaveAttribute('aria-checked', 'true');
  await page.keyboard.press('ArrowLeft'); // wraps to the last
  await expect(group.getByRole('radio', { name: 'LITE' })).toHaveAttribute('aria-checked', 'true');
  await expect(group.getByRole('radio', { checked: true })).toHaveCount(1);

  // One tab stop: Tab leaves the group, Shift+Tab comes back to the checked option.
  await page.keyboard.press('Tab');
  expect(await group.evaluate((el) => el.contains(document.activeElement))).toBe(false);
  await page.keyboard.press('Shift+Tab');
  await expect(group.getByRole('radio', { name: 'LITE' })).toBeFocused();
});
