import AxeBuilder from '@axe-core/playwright';
import type { Page, TestInfo } from '@playwright/test';
import { expect } from './fixtures';

/**
 * axe on the page as it is now (or only `include`): its default rules, and WCAG 2.5.3's `label-content-name-mismatch`
 * (a control's name contains its visible text; experimental in axe, so off by default). One scan per screen: each
 * scan injects axe into the page and walks the whole tree again.
 *
 * A scan costs: measured on the dashboard, 1.75–2.0 CPU-s with AxeBuilder's defaults, 0.61 with these two settings
 * (the same violations). `resultTypes: ['violations']`: only violations come back with every node (the tests read
 * nothing else; passes and inapplicable rules were serialised node by node). Legacy mode: `axe.run` in the page
 * itself, instead of a partial run per frame finished in a new blank page opened for each scan; what it gives up is
 * scanning cross-origin frames, and the portal's pages have none (Stripe's and PayPal's would be theirs to audit).
 */
export function axe(page: Page, include?: string) {
  const builder = new AxeBuilder({ page })
    .setLegacyMode(true)
    .options({ resultTypes: ['violations'], rules: { 'label-content-name-mismatch': { enabled: true } } });
  return include ? builder.include(include) : builder;
}

/**
 * axe's serious and critical violations on the page as it is now, and heading order (moderate for axe, but Lighthouse
 * counts it: headings go down one level at a time), one line each.
 */
export async function seriousViolations(page: Page): Promise<string[]> {
  const results = await axe(page).analyze();
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical' || v.id === 'heading-order')
    .map((v) => `${v.id}: ${v.help} (${v.nodes.length}): ${v.nodes.map((node) => node.target.join(' ')).join(', ')}`);
}

/**
 * The page has no serious or critical axe violation (nor a heading out of order) and does not scroll sideways (naming what sticks out past the
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
