import type { Page } from '@playwright/test';
import { createCustomer, DEMO, expect, test, useSession } from '../support/fixtures';

const cards = (page: Page) => page.getByTestId('key-card');

test.describe('keys dashboard', () => {
  test.beforeEach(async ({ login }) => {
    await login(DEMO);
  });

  test('paginates 9 keys into pages of 6 and 3', async ({ page }) => {
    await expect(cards(page)).toHaveCount(6);
    await page.getByRole('button', { name: 'Page 2' }).click();
    await expect(cards(page)).toHaveCount(3);
    await page.getByRole('button', { name: 'Previous page' }).click();
    await expect(cards(page)).toHaveCount(6);
  });

  test('a reload paints the keys and the updates from the data in the page, asking the API for none (ADR 045)', async ({
    page,
  }) => {
    await expect(cards(page)).toHaveCount(6);
    const FIRST_DATA = ['/auth/me', '/keys/', '/keys/health', '/staff/homepage-settings', '/config'];
    const asked: string[] = [];
    page.on('request', (request) => {
      const { pathname } = new URL(request.url());
      if (FIRST_DATA.includes(pathname)) asked.push(pathname);
    });
    await page.reload();
    await expect(cards(page)).toHaveCount(6);
    await expect(page.getByTestId('updates-list')).toBeVisible();
    expect(asked).toEqual([]);
  });

  test('searches store name, domain, myshopify domain and key', async ({ page }) => {
    const search = page.getByRole('searchbox', { name: 'Search keys' });
    for (const [query, expected] of [
      ['cedarwood', 'cedarwood-coffee'],
      ['dune-and-dale.myshopify', 'dune-and-dale'],
      ['EY005', 'REGULAR License'],
      ['aurora-outfitters.com', 'aurora-outfitters'],
    ] as const) {
      await search.fill(query);
      await expect(cards(page)).toHaveCount(1);
      await expect(cards(page).first().getByRole('heading')).toHaveText(expected);
    }
    await search.fill('no-such-store');
    await expect(page.getByRole('heading', { name: 'No Results Found' })).toBeVisible();
    await expect(page.getByText('No stores match the search')).toBeVisible();
    await page.getByRole('button', { name: 'Clear search' }).click();
    await expect(cards(page)).toHaveCount(6);
  });

  test('filters by each type, and the page resets to 1 on a filter change', async ({ page }) => {
    await page.getByRole('button', { name: 'Page 2' }).click();
    await expect(cards(page)).toHaveCount(3);
    for (const tier of ['PRO', 'REGULAR', 'LITE'] as const) {
      await page.getByRole('radio', { name: tier }).click();
      await expect(cards(page)).toHaveCount(3);
      for (const card of await cards(page).all()) await expect(card.getByText(tier, { exact: true })).toBeVisible();
      await expect(page.getByRole('navigation', { name: 'Pagination' })).toHaveCount(0);
    }
    await page.getByRole('radio', { name: 'ALL' }).click();
    await expect(cards(page)).toHaveCount(6);
    await expect(page.getByRole('button', { name: 'Page 1' })).toHaveAttribute('aria-current', 'page');
  });

  test('?q= sets the initial search', async ({ page }) => {
    await page.goto('/customer/my-keys?q=embers');
    await expect(page.getByRole('searchbox', { name: 'Search keys' })).toHaveValue('embers');
    await expect(cards(page)).toHaveCount(1);
  });

  test('shows a key on /customer/my-keys/{id}, and not-found for a key that is not mine', async ({ page }) => {
    await page.getByRole('link', { name: 'Details of aurora-outfitters' }).click();
    await expect(page).toHaveURL(/\/customer\/my-keys\/\d+$/);
    await expect(page.getByRole('heading', { name: 'aurora-outfitters', level: 1 })).toBeVisible();
    await expect(page.getByText('aurora-outfitters.myshopify.com')).toBeVisible();
    await page.goto('/customer/my-keys/10'); // the team member's key
    await expect(page.getByRole('heading', { name: 'Key not found' })).toBeVisible();
    await expect(page.getByText('fjord-studio')).toHaveCount(0);
  });

  test('a failed load says so and can be retried', async ({ page, allowConsoleErrors }) => {
    allowConsoleErrors(/status of 503/);
    await page.route('**/keys/', (route) => route.fulfill({ status: 503, json: { error: 'down' } }));
    // Without the session cookie the page comes without its first data (ADR 045): the dashboard asks for the keys.
    await page.context().clearCookies();
    await page.reload();
    await expect(page.getByText('Failed to fetch stores. Please try again later.')).toBeVisible();
    await page.unroute('**/keys/');
    await page.getByRole('button', { name: 'Try again' }).click();
    await expect(cards(page)).toHaveCount(6);
  });
});

test('a customer with no keys sees the empty state and adds one from onboarding', async ({
  page,
  request,
  baseURL,
}) => {
  const customer = await createCustomer(request, baseURL!, 'empty');
  await useSession(page, customer.token);
  await page.goto('/customer/my-keys');
  await expect(page.getByRole('heading', { name: 'No Keys Found' })).toBeVisible();
  await expect(page.getByText('Add a key to get started')).toBeVisible();
  await page.getByRole('link', { name: 'Add Key' }).click();
  await expect(page).toHaveURL(/\/customer\/onboarding$/);
  await expect(page.getByRole('heading', { name: 'Add Existing License Key' })).toBeVisible();
});
