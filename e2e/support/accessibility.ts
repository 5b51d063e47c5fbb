import AxeBuilder from '@axe-core/playwright';
import type { Page, TestInfo } from '@playwright/test';
import { expect } from './fixtures';

/** axe's serious and critical violations on the page as it is now, one line each. */
export async function seriousViolations(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page }).analyze();
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.help} (${v.nodes.length})`);
}

/**
 * The page has no serious or critical axe violation and does not scroll sideways (naming what sticks out past the
 * viewport's right edge), then a full-page screenshot attached to the test as `name`.
 */
export async function expectAccessible(page: Page, testInfo: TestInfo, name: string) {
  expect(await seriousViolations(page), name).toEqual([]);
  // Sideways scrolling of the page itself, naming the elements that stick out past the viewport's right edge.
  const overflow = await page.evaluate(() => {
    const width = window.innerWidth;
    const wide = Array.from(document.body.querySelectorAll('*'))
      .filter((element) => element.getBoundingClientRect().right > width + 1)
      .filter((element) => !element.closest('nav'))
      .slice(0, 8)
      .map(
        (element) =>
          `${element.tagName.toLowerCase()}.${element.className}@${Math.round(element.getBoundingClientRect().right)}`,
      );
    return { by: document.documentElement.scrollWidth - width, wide };
  });
  expect(overflow.by, `${name} scrolls sideways: ${overflow.wide.join(' | ')}`).toBeLessThanOrEqual(0);
  const file = testInfo.outputPath(`${name}.png`);
  await page.screenshot({ path: file, fullPage: true });
  await testInfo.attach(name, { path: file, contentType: 'image/png' });
}
