import type { Page, Route } from '@playwright/test';
import { createCustomer, DEMO, expect, mintKeys, test, useSession } from '../support/fixtures';

test.use({ viewport: { width: 390, height: 844 } });

/** Sums every layout shift not caused by input (the CLS of the page so far), from the page's own observer. */
async function installLayoutShiftObserver(page: Page) {
  await page.addInitScript(() => {
    const w = window as Window & { __cls?: number; __shifts?: { value: number; sources: string[] }[] };
    w.__cls = 0;
    w.__shifts = [];
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries() as (PerformanceEntry & {
        value: number;
        hadRecentInput: boolean;
        sources?: { node?: Node | null }[];
      })[]) {
        if (entry.hadRecentInput) continue;
        w.__cls! += entry.value;
        w.__shifts!.push({
          value: entry.value,
          sources: (entry.sources ?? []).map(
            (source) =>
              (source.node instanceof Element
                ? `${source.node.tagName.toLowerCase()}.${String(source.node.className).slice(0, 40)}`
                : String(source.node?.nodeName)) +
              ` ${JSON.stringify((source as unknown as { previousRect: DOMRect }).previousRect)} -> ${JSON.stringify((source as unknown as { currentRect: DOMRect }).currentRect)}`,
          ),
        });
      }
    }).observe({ type: 'layout-shift', buffered: true });
  });
}

/** Holds the matching responses until `release()`, so the skeletons are surely on screen first. */
function holdResponses(page: Page, url: string) {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  void page.route(url, async (route: Route) => {
    await released;
    await route.continue();
  });
  return release;
}

test('the dashboard loads without layout shift on a phone: CLS below 0.1', async ({ page, login }) => {
  await login(DEMO);
  await installLayoutShiftObserver(page);
  const releaseFeed = holdResponses(page, '**/staff/homepage-settings*');
  const releaseKeys = holdResponses(page, '**/keys/');
  // Without the session cookie the page comes without its first data (ADR 045): skeletons first, then the answers.
  await page.context().clearCookies();
  await page.reload();
  await expect(page.getByTestId('key-card-skeleton')).toHaveCount(6);
  await expect(page.getByRole('complementary', { name: 'Updates' }).locator('.animate-pulse').first()).toBeVisible();
  releaseFeed();
  await expect(page.getByTestId('updates-list')).toBeVisible();
  releaseKeys();
  await expect(page.getByTestId('key-card')).toHaveCount(6);
  // Let the browser lay out and report the last frame.
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
  const { cls, shifts } = await page.evaluate(() => {
    const w = window as Window & { __cls?: number; __shifts?: unknown[] };
    return { cls: w.__cls ?? 0, shifts: w.__shifts ?? [] };
  });
  console.log(`CLS on a 390 px phone: ${cls.toFixed(4)}`);
  expect(cls, JSON.stringify(shifts)).toBeLessThan(0.1);
});

test('with its first data in the page, the dashboard paints on a phone without layout shift (ADR 045)', async ({
  page,
  login,
}) => {
  await login(DEMO);
  await installLayoutShiftObserver(page);
  await page.reload(); // the session cookie is set now: the page carries the keys, the later cards come after the paint
  await expect(page.getByTestId('key-card')).toHaveCount(6);
  await expect(page.getByTestId('key-card-skeleton')).toHaveCount(0);
  await expect(page.getByTestId('updates-list')).toBeVisible();
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
  const { cls, shifts } = await page.evaluate(() => {
    const w = window as Window & { __cls?: number; __shifts?: unknown[] };
    return { cls: w.__cls ?? 0, shifts: w.__shifts ?? [] };
  });
  console.log(`CLS on a 390 px phone, first data in the page: ${cls.toFixed(4)}`);
  expect(cls, JSON.stringify(shifts)).toBeLessThan(0.1);
});

test('a long domain can be read in full on a phone: it wraps, it is never cut off', async ({
  page,
  request,
  baseURL,
}) => {
  const [key] = await mintKeys(request, baseURL!, 'PRO', 1);
  const customer = await createCustomer(request, baseURL!, 'long-domain');
  const auth = { authorization: `Token ${customer.token}` };
  await request.post(`${baseURL}/keys/`, { headers: auth, data: { key } });
  const name = 'an-extraordinarily-long-store-name-that-goes-on-and-on-and-on';
  await request.put(`${baseURL}/keys/`, {
    headers: auth,
    data: { key, main_url: `${name}.co.uk`, myshopify: name, secondary_url: `www.${name}.com` },
  });
  await useSession(page, customer.token);
  await page.goto('/customer/my-keys');

  const fullyShown = (locator: ReturnType<Page['getByTestId']>) =>
    locator.evaluate((element) => {
      const card = element.closest('[data-testid="key-card"]')!.getBoundingClientRect();
      const box = element.getBoundingClientRect();
      return {
        fits: element.scrollWidth <= element.clientWidth && box.right <= card.right && box.left >= card.left,
        ellipsis: getComputedStyle(element).textOverflow === 'ellipsis',
      };
    });
  const card = page.getByTestId('key-card');
  await expect(card.getByTestId('card-domain')).toHaveText(`https://${name}.co.uk`);
  expect(await fullyShown(card.getByTestId('card-domain'))).toEqual({ fits: true, ellipsis: false });
  expect(await fullyShown(card.getByRole('heading', { name }))).toEqual({ fits: true, ellipsis: false });
  expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);

  await card.getByRole('link', { name: `Details of ${name}` }).click();
  const details = page.getByTestId('key-card');
  for (const value of [`https://${name}.co.uk`, `${name}.myshopify.com`, `https://${name}.com`]) {
    const cell = details.locator('dd', { hasText: value });
    await expect(cell).toHaveText(value);
    expect(await fullyShown(cell as ReturnType<Page['getByTestId']>)).toEqual({ fits: true, ellipsis: false });
  }
});
