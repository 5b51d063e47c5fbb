import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { STORAGE_KEYS } from '../../lib/storage-keys';
import { fakeApi, json } from '../../test/fake-api';
import { TeamFeaturePage } from './team-feature-page';

afterEach(() => vi.unstubAllGlobals());

function renderPage(feature: 'marketplace' | 'ai-store', role: string | null) {
  localStorage.setItem(STORAGE_KEYS.sessionToken, 'session-token');
  fakeApi({
    'GET /auth/me': () =>
      json(200, { id: 1, email: 'a@example.com', name: 'A', role, has_lifetime_support: null, orders: [] }),
  });
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <MemoryRouter>
        <TeamFeaturePage feature={feature} />
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

describe('Marketplace and AI Store Builder', () => {
  it.each([
    ['marketplace', 'team', 'Marketplace for team members'],
    ['ai-store', 'team', 'AI Store Builder for team members'],
    ['marketplace', null, 'Soon'],
  ] as const)('%s (role %s) has a way back to the keys', async (feature, role, heading) => {
    renderPage(feature, role);
    expect(await screen.findByRole('heading', { name: heading })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to my keys' })).toHaveAttribute('href', '/customer/my-keys');
  });
});
