import AxeBuilder from '@axe-core/playwright';
import { DEMO, expect, test } from '../support/fixtures';

for (const viewport of [
  { name: 'desktop', width: 1440, height: 900 },
  { name: 'phone', width: 360, height: 780 },
]) {
  test.describe(`dashboard at ${viewport.name} width`, () => {
    test.use({ viewport: { width: viewport.width, height: viewport.height } });

    test('has no serious or critical accessibility violations, and a screenshot', async ({ page, login }, testInfo) => {
      await login(DEMO);
      await expect(page.getByTestId('key-card')).toHaveCount(6);
      await expect(page.getByTestId('updates-list')).toBeVisible();
      const results = await new AxeBuilder({ page }).analyze();
      const serious = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
      expect(serious.map((v) => `${v.id}: ${v.help} (${v.nodes.length})`)).toEqual([]);
      const horizontalOverflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(horizontalOverflow).toBeLessThanOrEqual(0);
      await page.screenshot({ path: testInfo.outputPath(`dashboard-${viewport.name}.png`), fullPage: true });
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
