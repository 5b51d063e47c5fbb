import fs from 'node:fs';
import path from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { DEMO, expect, test } from '../support/fixtures';

/** `UPDATE_SCREENSHOTS=1` also writes the screenshots to docs/screenshots (the README shows them). */
const docsScreenshots = path.resolve(import.meta.dirname, '../../docs/screenshots');

for (const viewport of [
  { name: 'desktop', width: 1440, height: 900 },
  { name: 'phone', width: 390, height: 844 },
]) {
  test.describe(`dashboard at ${viewport.name} width`, () => {
    test.use({ viewport: { width: viewport.width, height: viewport.height } });

    test('has no serious or critical accessibility violations, and a screenshot', async ({ page, login }, testInfo) => {
      await login(DEMO);
      await expect(page.getByTestId('key-card')).toHaveCount(6);
      await expect(page.getByTestId('updates-list')).toBeVisible();
      const results = await new AxeBuilder({ page }).analyze();
      // Serious and critical ones, and heading order (moderate for axe, but Lighthouse counts it): headings go down
      // one level at a time (the cards' titles are h2 under the page's h1).
      const failing = results.violations.filter(
        (v) => v.impact === 'serious' || v.impact === 'critical' || v.id === 'heading-order',
      );
      expect(failing.map((v) => `${v.id}: ${v.help} (${v.nodes.length})`)).toEqual([]);
      const horizontalOverflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(horizontalOverflow).toBeLessThanOrEqual(0);
      await page.screenshot({ path: testInfo.outputPath(`dashboard-${viewport.name}.png`), fullPage: true });
      if (process.env.UPDATE_SCREENSHOTS) {
        fs.copyFileSync(
          testInfo.outputPath(`dashboard-${viewport.name}.png`),
          path.join(docsScreenshots, `dashboard-${viewport.name}.png`),
        );
      }
      await testInfo.attach(`dashboard-${viewport.name}`, {
        path: testInfo.outputPath(`dashboard-${viewport.name}.png`),
        contentType: 'image/png',
      });
    });
  });
}

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
    const results = await new AxeBuilder({ page }).include('[role="dialog"]').analyze();
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
