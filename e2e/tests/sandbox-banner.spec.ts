import path from 'node:path';
import { DEMO, expect, STAFF, test } from '../support/fixtures';

/**
 * Issue 19: the e2e server is a production start with SANDBOX_INTEGRATIONS=true (global setup), so every page says
 * "Sandbox — no real money": the sign-in pages, the customer app and the staff console, at desktop and phone widths.
 * Every page of every browser test carries the label, so screens.spec.ts's axe scans of the sign-in page and the
 * dashboard at both widths are scans of the label too (it is not scanned again here).
 */
const screenshots = path.join(import.meta.dirname, '../test-results/screenshots');
const BANNER = 'Sandbox — no real money';

test.describe.configure({ timeout: 90_000 });

for (const { width, height } of [
  { width: 1440, height: 900 },
  { width: 390, height: 844 },
]) {
  test.describe(`at ${width} px`, () => {
    test.use({ viewport: { width, height } });

    test('every page shows the sandbox label, accessibly, without moving the page', async ({ page, login }) => {
      // The config answer is held back: the sign-in form is laid out first, then the label appears over nothing.
      let release!: () => void;
      const released = new Promise<void>((resolve) => (release = resolve));
      await page.route('**/config', async (route) => {
        await released;
        await route.continue();
      });
      await page.goto('/login');
      const heading = page.getByRole('heading', { level: 1 });
      await expect(heading).toBeVisible();
      const button = page.getByRole('button', { name: 'Sign in' });
      const before = [await heading.boundingBox(), await button.boundingBox()];
      release();
      const banner = page.getByRole('complementary', { name: 'Sandbox' });
      await expect(banner).toHaveText(BANNER);
      expect([await heading.boundingBox(), await button.boundingBox()]).toEqual(before);
      // Small and in a corner: it never covers the sign-in form.
      const box = (await banner.boundingBox())!;
      expect(box.height).toBeLessThanOrEqual(32);
      expect(box.x + box.width).toBeLessThan(width / 2 + 120);
      await page.screenshot({ path: path.join(screenshots, `sandbox-login-${width}.png`) });
      await page.unroute('**/config');

      await login(DEMO);
      await expect(page.getByRole('complementary', { name: 'Sandbox' })).toHaveText(BANNER);
      await page.screenshot({ path: path.join(screenshots, `sandbox-dashboard-${width}.png`) });
    });

    test('the staff console shows it too', async ({ page, login }) => {
      await login(STAFF);
      await page.goto('/staff');
      await expect(page.getByRole('navigation', { name: 'Staff console' })).toBeVisible();
      await expect(page.getByRole('complementary', { name: 'Sandbox' })).toHaveText(BANNER);
      await page.screenshot({ path: path.join(screenshots, `sandbox-staff-${width}.png`) });
    });
  });
}
