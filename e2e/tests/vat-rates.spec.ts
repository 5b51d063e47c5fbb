import { apiLogin, expect, STAFF, test, useSession } from '../support/fixtures';

/** Issue 19 (ADR 036) as staff see it: the dated VAT rates, and a rate added with its start date and a reason. */
test.describe.configure({ timeout: 60_000 });

for (const viewport of [
  { width: 1440, height: 900 },
  { width: 390, height: 844 },
]) {
  test(`staff read the VAT rates and add one with its start date (${viewport.width} px)`, async ({
    page,
    request,
    baseURL,
  }) => {
    await page.setViewportSize(viewport);
    await useSession(page, await apiLogin(request, baseURL!, STAFF));
    await page.goto('/staff/vat-rates');
    await expect(page.getByRole('heading', { name: 'VAT rates', level: 1 })).toBeVisible();
    const table = page.getByRole('table', { name: 'VAT rates' });
    await page.getByLabel('Filter by country').fill('Estonia');
    await expect(table.getByRole('row').filter({ hasText: '2025-07-01' })).toContainText('24%in force today');
    await expect(table.getByRole('row').filter({ hasText: 'always (baseline)' })).toContainText('20%');
    await page.screenshot({ path: test.info().outputPath(`vat-rates-${viewport.width}.png`), fullPage: true });

    await page.getByRole('button', { name: 'Add a rate' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add a VAT rate' });
    await dialog.getByLabel('Country (ISO code)').fill('ee');
    await dialog.getByLabel('Standard rate (%)').fill('25.5');
    await dialog.getByLabel('Applies from').fill(`2099-0${viewport.width === 390 ? 2 : 1}-01`);
    await dialog.getByLabel('Reason').fill('e2e: a future Estonian rate');
    await page.screenshot({ path: test.info().outputPath(`vat-rates-dialog-${viewport.width}.png`) });
    await dialog.getByRole('button', { name: 'Add rate' }).click();
    await expect(dialog).toBeHidden();
    await expect(table).toContainText('e2e: a future Estonian rate');
    // Still today's rate in force: the new one starts later.
    await expect(table.getByRole('row').filter({ hasText: 'in force today' })).toContainText('24%');
  });
}
