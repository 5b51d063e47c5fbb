import type { APIRequestContext, Page } from '@playwright/test';
import { createCustomer, expect, mintKeys, test } from '../support/fixtures';

/**
 * The sandbox wallet's approval page in a real browser (server side only; the dashboard's PayPal flow is the web
 * app's e2e): it renders under the app's CSP without console errors, is usable by keyboard, and its Approve and
 * Cancel buttons post the form and land on the exact return URLs PayPal's redirect uses.
 */
async function paypalOrder(request: APIRequestContext, baseURL: string) {
  const [key] = await mintKeys(request, baseURL, 'LITE', 1);
  const customer = await createCustomer(request, baseURL, 'paypal-page');
  const headers = { authorization: `Token ${customer.token}` };
  expect((await request.post(`${baseURL}/keys/`, { headers, data: { key } })).status()).toBe(201);
  const created = await request.post(`${baseURL}/stripe/paypal/create-order`, {
    headers,
    data: {
      price_id: 'price_sandbox_lite_to_pro',
      theme_type: 'PRO',
      key,
      country_code: 'US',
      customer_name: 'Sam Buyer',
      customer_email: 'sam@example.com',
      billing_address: { line1: '1 Main St', city: 'Austin', state: 'TX', postal_code: '73301', country: 'US' },
    },
  });
  expect(created.status()).toBe(200);
  const body = (await created.json()) as { order: { id: string }; approve_url: string };
  return { ...body, headers };
}

/**
 * The browser's navigation to the dashboard that the approval page's form causes. Read from the request, not from
 * `page.url()`: this browser is not signed in, so the app moves on to /login?next=… at once (a race the URL loses).
 */
function dashboardNavigation(page: Page) {
  return page.waitForRequest(
    (request) => request.isNavigationRequest() && new URL(request.url()).pathname === '/customer/my-keys',
  );
}

test('Approve returns to the dashboard with the token and PayerID, and the order can then be captured', async ({
  page,
  request,
  baseURL,
}) => {
  const { order, approve_url, headers } = await paypalOrder(request, baseURL!);
  // Not approved yet: capture fails.
  const early = await request.post(`${baseURL}/stripe/paypal/capture-order`, { headers, data: { order_id: order.id } });
  expect(early.status()).toBe(409);

  await page.goto(approve_url);
  await expect(page.getByRole('heading', { name: 'PayPal (sandbox)' })).toBeVisible();
  await expect(page.getByText('$320.00 USD')).toBeVisible();
  await page.getByRole('button', { name: 'Approve payment' }).focus();
  const returned = dashboardNavigation(page);
  await page.keyboard.press('Enter');
  expect(new URL((await returned).url()).search).toBe(`?paypalReturn=true&token=${order.id}&PayerID=SANDBOXPAYER`);

  const captured = await request.post(`${baseURL}/stripe/paypal/capture-order`, {
    headers,
    data: { order_id: order.id },
  });
  expect(captured.status()).toBe(200);
  expect(await captured.json()).toMatchObject({ order: { status: 'completed' }, key: { pro: true } });
});

test('Cancel returns to the dashboard with paypalCancel and the token', async ({ page, request, baseURL }) => {
  const { order, approve_url } = await paypalOrder(request, baseURL!);
  await page.goto(approve_url);
  const returned = dashboardNavigation(page);
  await page.getByRole('button', { name: 'Cancel' }).click();
  expect(new URL((await returned).url()).search).toBe(`?paypalCancel=true&token=${order.id}`);
});
