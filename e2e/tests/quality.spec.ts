// The dashboard's axe scan and its screenshots at 1440 and 390 px are screens.spec.ts's (every screen, once).
import { axe } from '../support/accessibility';
import { DEMO, expect, test } from '../support/fixtures';

test('the dashboard is keyboard reachable: search, filter and a dialog that closes on Escape', async ({
  page,
  login,
}) => {
  await login(DEMO);
  await page.getByRole('searchbox', { name: 'Search keys' }).focus();
  await page.keyboard.type('bloom');
  await expect(page.getByTestId('key-card')).toHaveCount(1);
  await page.keyboard.press('Tab');
  await expect(page.getByRole('radio', { name: 'ALL' })).toBeFocused();
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('Enter');
  await expect(page.getByRole('radio', { name: 'PRO' })).toHaveAttribute('aria-checked', 'true');
  await page.getByRole('button', { name: 'Add New Key' }).focus();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('dialog')).toBeVisible();
  await expect(page.getByRole('dialog').getByLabel('License key')).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(page.getByRole('dialog')).toBeHidden();
});

test('the connection panel and the wizard have no serious accessibility violations and keep heading order', async ({
  page,
  login,
}) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await login(DEMO);
  for (const [opener, dialog] of [
    ['Edit Connection', 'Edit Connection'],
    ['Connect Store', 'Connect Your Store'],
  ] as const) {
    await page.getByRole('button', { name: opener }).first().click();
    await expect(page.getByRole('dialog', { name: dialog })).toBeVisible();
    const results = await axe(page, '[role="dialog"]').analyze();
    const failing = results.violations.filter(
      (v) => v.impact === 'serious' || v.impact === 'critical' || v.id === 'heading-order',
    );
    expect(failing.map((v) => `${dialog}: ${v.id}: ${v.help} (${v.nodes.length})`)).toEqual([]);
    await page.keyboard.press('Escape');
  }
});

test('a disabled field looks disabled: muted background, not-allowed cursor', async ({ page, login }) => {
  await login(DEMO);
  await page.getByRole('button', { name: 'User menu' }).click();
  await page.getByRole('menuitem', { name: 'Settings' }).click();
  const dialog = page.getByRole('dialog', { name: 'Settings' });
  const style = (label: string) =>
    dialog.getByLabel(label).evaluate((element) => {
      const computed = getComputedStyle(element);
      return { cursor: computed.cursor, background: computed.backgroundColor, color: computed.color };
    });
  const email = await style('Email');
  const name = await style('Name');
  await expect(dialog.getByLabel('Email')).toBeDisabled();
  expect(email.cursor).toBe('not-allowed');
  expect(email.background).not.toBe(name.background);
  expect(email.background).not.toBe('rgb(255, 255, 255)');
  expect(email.color).not.toBe(name.color);
});
