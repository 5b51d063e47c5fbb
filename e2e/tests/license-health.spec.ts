import type { APIRequestContext } from '@playwright/test';
import { expectAccessible } from '../support/accessibility';
import { apiLogin, createCustomer, expect, mintKeys, STAFF, test, useSession } from '../support/fixtures';

/**
 * Issue 13, ADR 033: what validation check-ins show. A key's theme checks in from its store (an older version) and its
 * token from a domain the key does not cover; once the check-ins are flushed, the card shows its health and the
 * mismatch, and staff find the foreign domain on the Sightings page. At 1440 and 390 px, with axe scans.
 */
test.describe.configure({ timeout: 90_000 });

const SUFFIX = Date.now().toString(36);
const STORE = `health-${SUFFIX}.myshopify.com`;
const COPY = `copy-${SUFFIX}.com`;

async function validate(request: APIRequestContext, baseURL: string, token: string, domain: string, version: string) {
  const response = await request.post(`${baseURL}/api/licenses/validate`, {
    data: { token, domain, theme_version: version, theme_edition: 'PRO' },
  });
  expect(response.status()).toBe(200);
  return (await response.json()) as { valid: boolean; code: string };
}

test('the key card shows license health and a mismatch; staff see the foreign domain among sightings', async ({
  page,
  request,
  baseURL,
}, testInfo) => {
  const [key] = await mintKeys(request, baseURL!, 'PRO', 1);
  const customer = await createCustomer(request, baseURL!, 'license-health');
  const auth = { authorization: `Token ${customer.token}` };
  expect((await request.post(`${baseURL}/keys/`, { headers: auth, data: { key } })).status()).toBe(201);
  const saved = await request.put(`${baseURL}/keys/`, { headers: auth, data: { key, myshopify: STORE } });
  const { tokentheme } = (await saved.json()) as { tokentheme: string };

  expect(await validate(request, baseURL!, tokentheme, STORE, '4.1.0')).toMatchObject({ valid: true, code: 'VALID' });
  expect(await validate(request, baseURL!, tokentheme, COPY, '4.2.0')).toMatchObject({ code: 'DOMAIN_MISMATCH' });
  // Check-ins are written in batches (CHECKIN_FLUSH_SECONDS, 5 s by default).
  await expect
    .poll(
      async () => {
        const health = (await (await request.get(`${baseURL}/keys/health`, { headers: auth })).json()) as {
          last_checkin_at: string | null;
          mismatch: unknown;
        }[];
        return health.some((h) => h.last_checkin_at !== null && h.mismatch !== null);
      },
      { timeout: 30_000 },
    )
    .toBe(true);

  await useSession(page, customer.token);
  for (const [width, height] of [
    [1440, 900],
    [390, 844],
  ] as const) {
    await page.setViewportSize({ width, height });
    await page.goto('/customer/my-keys');
    const card = page.getByTestId('key-card').filter({ hasText: STORE });
    const health = card.getByRole('region', { name: 'License health' });
    await expect(health.getByText(/^Checked in (just now|\d+ seconds? ago|1 minute ago)$/)).toBeVisible();
    await expect(health.getByText('Version 4.1.0')).toBeVisible();
    await expect(health.getByText(/^Update available: \d/)).toBeVisible();
    await expect(health.getByRole('note')).toContainText(
      `This token was seen on ${COPY}, which this key does not cover.`,
    );
    await expectAccessible(page, testInfo, `key-card-health-${width}`);
  }

  const staffToken = await apiLogin(request, baseURL!, STAFF);
  await useSession(page, staffToken);
  for (const [width, height] of [
    [1440, 900],
    [390, 844],
  ] as const) {
    await page.setViewportSize({ width, height });
    await page.goto(`/staff/sightings?q=${COPY}`);
    await expect(page.getByRole('heading', { name: 'Sightings', level: 1 })).toBeVisible();
    const table = page.getByRole('table', { name: 'License sightings' });
    await expect(table.getByText(COPY)).toBeVisible();
    await expect(table.getByRole('link', { name: customer.email })).toBeVisible();
    await expectAccessible(page, testInfo, `staff-sightings-${width}`);
  }
});
