import type { Page } from '@playwright/test';
import { seriousViolations } from '../support/accessibility';
import { createCustomer, expect, STAFF, test, useSession } from '../support/fixtures';

async function confirmWithReason(page: Page, confirm: string, reason: string) {
  const dialog = page.getByRole('dialog');
  await dialog.getByRole('textbox', { name: 'Reason' }).fill(reason);
  await dialog.getByRole('button', { name: confirm }).click();
  await expect(dialog).toBeHidden();
}

for (const width of [1440, 390]) {
  test.describe(`staff customers at ${width} px`, () => {
    test.use({ viewport: { width, height: 900 } });

    test('search a customer, grant credits with a reason, mint a key they then see on their dashboard', async ({
      page,
      request,
      baseURL,
      login,
    }) => {
      test.setTimeout(120_000); // two axe runs and a long flow on a shared machine
      const customer = await createCustomer(request, baseURL!, 'staffed');
      await login(STAFF);
      // Into the console the way staff go: the user menu, then the console's nav.
      await page.getByRole('button', { name: 'User menu' }).click();
      await page.getByRole('menuitem', { name: 'Staff console' }).click();
      await page.getByRole('navigation', { name: 'Staff console' }).getByRole('link', { name: 'Customers' }).click();
      await expect(page.getByRole('heading', { name: 'Customers', level: 1 })).toBeVisible();
      expect(await seriousViolations(page)).toEqual([]);

      await page.getByRole('textbox', { name: 'Search' }).fill(customer.email);
      await page.getByRole('button', { name: 'Apply' }).click();
      await expect(page).toHaveURL(/\?q=/);
      const table = page.getByRole('table', { name: 'Customers' });
      await expect(table.getByRole('row')).toHaveCount(2);
      await table.getByRole('link', { name: customer.email }).click();

      await expect(page.getByRole('heading', { name: customer.email, level: 1 })).toBeVisible();
      const balance = page.getByTestId('customer-credits-balance');
      await expect(balance).toHaveText('Balance 0 credits');
      expect(await seriousViolations(page)).toEqual([]);

      await page.getByRole('button', { name: 'Grant or remove credits' }).click();
      await page.getByRole('spinbutton', { name: 'Credits' }).fill('4');
      await confirmWithReason(page, 'Change balance', 'Thanks for the bug report');
      await expect(balance).toHaveText('Balance 4 credits');
      await expect(page.getByRole('region', { name: 'Credits' }).getByText('Thanks for the bug report')).toBeVisible();

      await page.getByRole('button', { name: 'Mint keys' }).click();
      await page.getByRole('combobox', { name: 'Tier' }).selectOption('PRO');
      await confirmWithReason(page, 'Mint keys', 'Replacement for a lost order');
      const keys = page.getByRole('region', { name: 'Keys (1)' });
      await expect(keys).toBeVisible();
      const apiKey = (await keys.locator('code').first().textContent())!.trim();
      expect(apiKey).toMatch(/^[0-9A-Z]{5}(-[0-9A-Z]{5}){4}$/);

      // The customer sees the key on their dashboard, and the credits in their menu.
      await useSession(page, customer.token);
      await page.goto('/customer/my-keys');
      await expect(page.getByTestId('key-card')).toHaveCount(1);
      await expect(page.getByText(apiKey)).toBeVisible();
    });
  });
}
