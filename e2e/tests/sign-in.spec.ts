import { createCustomer, DEMO, expect, STAFF, test } from '../support/fixtures';

test('a signed-out visitor is sent to /login and back where they were going', async ({ page }) => {
  await page.goto('/customer/my-keys');
  await expect(page).toHaveURL(/\/login\?next=%2Fcustomer%2Fmy-keys/);
  await page.getByLabel('Email').fill(DEMO.email);
  await page.getByLabel('Password').fill(DEMO.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(/\/customer\/my-keys$/);
  await expect(page.getByRole('heading', { name: 'Keys' })).toBeVisible();
});

test('staff signing in land on the staff console (issue 21)', async ({ page }) => {
  await page.goto('/login');
  await page.getByLabel('Email').fill(STAFF.email);
  await page.getByLabel('Password').fill(STAFF.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(/\/staff$/);
  await expect(page.getByRole('navigation', { name: 'Staff console' })).toBeVisible();
});

test('the root sends a visitor to the keys dashboard, which asks a signed-out one to sign in', async ({ page }) => {
  await page.goto('/');
  await expect(page).toHaveURL(/\/login\?next=%2Fcustomer%2Fmy-keys$/);
});

test('the demo customer sees their keys, then signs out', async ({ page, login }) => {
  await login(DEMO);
  await expect(page.getByTestId('key-card').first()).toBeVisible();
  await expect(page.getByText('PR0A1-DEM0K-EY001-AURRA-PR001')).toBeVisible();
  await expect(page.getByText('aurora-outfitters.com').first()).toBeVisible();

  await page.getByRole('button', { name: 'User menu' }).click();
  await page.getByRole('menuitem', { name: 'Sign out' }).click();
  await expect(page).toHaveURL(/\/login$/);
  await page.goto('/customer/my-keys');
  await expect(page).toHaveURL(/\/login\?next=/);
});

test('a wrong password shows the server message', async ({ page, allowConsoleErrors }) => {
  allowConsoleErrors(/status of 401/);
  await page.goto('/login');
  await page.getByLabel('Email').fill(DEMO.email);
  await page.getByLabel('Password').fill('not-the-password');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('alert')).toHaveText('Invalid email or password');
});

test('a new person signs up and lands on an empty keys page', async ({ page }) => {
  await page.goto('/signup');
  await page.getByLabel('Name').fill('Nora New');
  await page.getByLabel('Email').fill(`nora-${Date.now()}@example.com`);
  await page.getByLabel('Password').fill('a-strong-password');
  await page.getByRole('button', { name: 'Create account' }).click();
  await expect(page).toHaveURL(/\/customer\/my-keys$/);
  await expect(page.getByText('No Keys Found')).toBeVisible();
});

test('a session revoked on the server sends the person back to /login', async ({
  page,
  request,
  baseURL,
  allowConsoleErrors,
}) => {
  allowConsoleErrors(/status of 401/);
  const customer = await createCustomer(request, baseURL!, 'revoked');
  await page.goto('/login');
  await page.evaluate((token) => localStorage.setItem('keyport.session', token), customer.token);
  await request.post(`${baseURL}/auth/logout`, { headers: { authorization: `Token ${customer.token}` } });
  await page.goto('/customer/my-keys');
  await expect(page).toHaveURL(/\/login\?reason=expired&next=%2Fcustomer%2Fmy-keys/);
  await expect(page.getByText('Your session has ended. Please sign in again.')).toBeVisible();
});

test('an invalid or expired reset link says so and offers a link to ask for a new one', async ({
  page,
  allowConsoleErrors,
}) => {
  allowConsoleErrors(/status of 400/);
  await page.goto('/reset-password?token=not-a-valid-reset-token');
  await page.getByLabel('New password', { exact: true }).fill('a-new-password');
  await page.getByLabel('Repeat new password').fill('a-new-password');
  await page.getByRole('button', { name: 'Save password and sign in' }).click();
  const alert = page.getByRole('alert');
  await expect(alert).toContainText('This reset link is invalid or has expired. Ask for a new one.');
  await alert.getByRole('link', { name: 'Ask for a new link' }).click();
  await expect(page).toHaveURL(/\/forgot-password$/);
  await expect(page.getByRole('heading', { name: 'Reset your password' })).toBeVisible();
});
