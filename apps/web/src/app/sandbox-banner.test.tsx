import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeApi, json } from '../test/fake-api';
import { SANDBOX_BANNER_TEXT, SandboxBanner } from './sandbox-banner';

const LINKS = {
  shopUrl: 'https://example.com/shop',
  productUrl: 'https://example.com/products/theme',
  appStoreUrl: 'https://apps.shopify.com/',
  sellStoreFormUrl: 'https://example.com/sell-your-store',
  setupGuideVideoUrl: null,
};

afterEach(() => {
  vi.unstubAllGlobals();
});

function renderBanner(answer: () => Response) {
  const api = fakeApi({ 'GET /config': answer });
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <p>Page</p>
      <SandboxBanner />
    </QueryClientProvider>,
  );
  return api;
}

describe('the sandbox banner (issue 19)', () => {
  it('says "Sandbox — no real money" in a labelled landmark when the server runs on sandboxes', async () => {
    renderBanner(() => json(200, { links: LINKS, sandbox: true }));
    const banner = await screen.findByRole('complementary', { name: 'Sandbox' });
    expect(banner).toHaveTextContent(SANDBOX_BANNER_TEXT);
    expect(SANDBOX_BANNER_TEXT).toBe('Sandbox — no real money');
    // Fixed to a corner: it takes no room in the page's flow (no layout shift) and never catches a click.
    expect(banner.className).toMatch(/\bfixed\b/);
    expect(banner.className).toMatch(/\bpointer-events-none\b/);
  });

  it('is absent when real money is taken', async () => {
    const real = renderBanner(() => json(200, { links: LINKS, sandbox: false }));
    await waitFor(() => expect(real.callsTo('GET', '/config')).toHaveLength(1));
    await screen.findByText('Page');
    expect(screen.queryByText(SANDBOX_BANNER_TEXT)).not.toBeInTheDocument();
  });

  it('is absent when the config call fails', async () => {
    const failing = renderBanner(() => json(503, { error: 'down', code: 'unavailable' }));
    await waitFor(() => expect(failing.callsTo('GET', '/config')).toHaveLength(1));
    expect(screen.queryByText(SANDBOX_BANNER_TEXT)).not.toBeInTheDocument();
  });
});
