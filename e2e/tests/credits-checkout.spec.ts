import path from 'node:path';
import type { APIRequestContext, Locator, Page } from '@playwright/test';
import { apiLogin, createCustomer, expect, TEAM, test, useSession } from '../support/fixtures';

/** Screenshots for people to look at (docs/screenshots with UPDATE_SCREENSHOTS=1), not compared by the test. */
const screenshots = process.env.UPDATE_SCREENSHOTS
  ? path.resolve(import.meta.dirname, '../../docs/screenshots')
  : path.resolve(import.meta.dirname, '../../test-results/screenshots');

async function balanceOf(request: APIRequestContext, baseURL: string, token: string): Promise<number> {
  const response = await request.get(`${baseURL}/credits/balance`, { headers: { authorization: `Token ${token}` } });
  expect(response.status()).toBe(200);
  return ((await response.json()) as { balance: number }).balance;
}

/** §4's window hook, as the web app declares it (apps/web/src/lib/credit-events.ts). */
type CreditsWindow = Window & { openCreditsDialog?: () => void };

/** The team member's dashboard, then Buy Credits through §4's window hook. */
async function openBuyCredits(page: Page, token: string) {
  await useSession(page, token);
  await page.goto('/customer/my-keys');
  await page.waitForFunction(() => typeof (window as CreditsWindow).openCreditsDialog === 'function');
  await page.evaluate(() => (window as CreditsWindow).openCreditsDialog!());
  const dialog = page.getByRole('dialog', { name: 'Buy Credits' });
  await expect(dialog.getByTestId('credit-pack').first()).toBeVisible();
  return dialog;
}

/** Chooses the pack that costs `price` and answers how many credits it holds. */
async function choosePack(dialog: Locator, price: string): Promise<number> {
  const pack = dialog.getByTestId('credit-pack').filter({ hasText: price });
  await pack.click();
  await expect(pack.getByRole('radio')).toBeChecked();
  return Number(/(\d+) credits?/.exec((await pack.textContent()) ?? '')![1]);
}

async function fillBilling(dialog: Locator) {
  await dialog.getByLabel('Full name').fill('Toni Team');
  await dialog.getByLabel('Email').fill('team@example.com');
  await dialog.getByLabel('Address line 1').fill('1 Market Street');
  await dialog.getByLabel('City').fill('San Francisco');
  await dialog.getByLabel('Postal code').fill('94105');
  await dialog.getByLabel('Country').selectOption('US');
}

test.describe('Buy Credits on a desktop', () => {
  test.use({ viewport: { width: 1440, height: 900 } });
  // A whole purchase (billing, card or the PayPal approval page, the sync) takes 20-25 s on a busy shared machine.
  test.slow();

  test('a team member buys a pack with the sandbox card 4242…: success state, the balance rose by the pack', async ({
    page,
    request,
    baseURL,
  }) => {
    const token = await apiLogin(request, baseURL!, TEAM);
    const before = await balanceOf(request, baseURL!, token);
    const dialog = await openBuyCredits(page, token);
    await expect(dialog.getByTestId('credits-balance')).toHaveText(new RegExp(`^${before} credits?$`));
    const credits = await choosePack(dialog, '$50.00');
    await fillBilling(dialog);
    await expect(dialog.getByTestId('order-total')).toHaveText('$50.00');
    await dialog.getByLabel('Card number').fill('4242 4242 4242 4242');
    await dialog.getByLabel('Expiration date (MM / YY)').fill('12 / 34');
    await dialog.getByLabel('CVC').fill('123');
    await expect(dialog.getByRole('button', { name: 'Pay $50.00' })).toBeEnabled();
    await page.screenshot({ path: path.join(screenshots, 'buy-credits-desktop.png') });
    const closed = page.evaluate(
      () =>
        new Promise((resolve) =>
          window.addEventListener('creditsDialogClosed', (event) => resolve((event as CustomEvent).detail), {
            once: true,
          }),
        ),
    );
    await dialog.getByRole('button', { name: 'Pay $50.00' }).click();

    const success = dialog.getByTestId('credits-purchase-success');
    await expect(success.getByRole('heading', { name: `${credits} credits added` })).toBeVisible();
    await expect(success).toContainText(`Your balance is now ${before + credits} credits.`);
    await page.screenshot({ path: path.join(screenshots, 'buy-credits-success-desktop.png') });
    expect(await balanceOf(request, baseURL!, token)).toBe(before + credits);

    await success.getByRole('button', { name: 'Close' }).click();
    expect(await closed).toEqual({ purchased: true });
    await expect(dialog).toHaveCount(0);
  });

  test('a team member buys a pack with PayPal through the sandbox approval page', async ({
    page,
    request,
    baseURL,
  }) => {
    const token = await apiLogin(request, baseURL!, TEAM);
    const before = await balanceOf(request, baseURL!, token);
    const dialog = await openBuyCredits(page, token);
    const credits = await choosePack(dialog, '$25.00');
    const paypal = dialog.getByTestId('paypal-section');
    await expect(paypal).toContainText('Please fill in all billing information above to use PayPal');
    await fillBilling(dialog);
    await paypal.getByRole('button', { name: 'Continue to PayPal' }).click();

    await expect(page).toHaveURL(/\/sandbox\/paypal\/checkout\?token=/);
    await expect(page.getByLabel('Amount to pay')).toHaveText('$25.00 USD');
    await page.getByRole('button', { name: 'Approve payment' }).click();

    await expect(page.getByText(`Payment completed. ${credits} credits were added to your account.`)).toBeVisible();
    await expect(page.getByText('Payment completed. Your license was upgraded.')).toHaveCount(0);
    await expect(page).toHaveURL(/\/customer\/my-keys$/);
    expect(await balanceOf(request, baseURL!, token)).toBe(before + credits);
  });

  test('a customer has no window.openCreditsDialog, and the checkout code is never fetched', async ({
    page,
    request,
    baseURL,
  }) => {
    const customer = await createCustomer(request, baseURL!, 'credits-customer');
    const chunks: string[] = [];
    page.on('request', (r) => chunks.push(new URL(r.url()).pathname));
    await useSession(page, customer.token);
    await page.goto('/customer/my-keys');
    await expect(page.getByRole('heading', { name: 'No Keys Found' })).toBeVisible();
    await page.waitForLoadState('networkidle');
    expect(await page.evaluate(() => typeof (window as CreditsWindow).openCreditsDialog)).toBe('undefined');
    expect(chunks.filter((p) => p.includes('buy-credits-dialog') || p === '/credits/packs')).toEqual([]);
  });
});

test.describe('Buy Credits on a phone', () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test('the dialog stacks its columns on a 390 px screen', async ({ page, request, baseURL }) => {
    const token = await apiLogin(request, baseURL!, TEAM);
    const dialog = await openBuyCredits(page, token);
    await choosePack(dialog, '$50.00');
    await page.screenshot({ path: path.join(screenshots, 'buy-credits-phone.png') });
    await fillBilling(dialog);
    const paypal = dialog.getByRole('button', { name: 'Continue to PayPal' });
    await paypal.scrollIntoViewIfNeeded();
    await expect(paypal).toBeInViewport();
    const box = await paypal.boundingBox();
    expect(box!.x).toBeGreaterThanOrEqual(0);
    expect(box!.x + box!.width).toBeLessThanOrEqual(390);
    await page.screenshot({ path: path.join(screenshots, 'buy-credits-phone-paypal.png') });
  });
});
