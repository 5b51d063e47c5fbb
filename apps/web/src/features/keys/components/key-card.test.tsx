import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Key } from '@keyport/shared/contracts/keys';
import { deriveStoreCard } from '@keyport/shared/domain/store-card';
import { fakeApi, json } from '../../../test/fake-api';
import { KeyCard } from './key-card';

afterEach(() => vi.unstubAllGlobals());

const key = (id: number, store: string): Key => ({
  id,
  api_key: `KEY0${id}-AAAAA-BBBBB-CCCCC-DDDDD`,
  pro: true,
  lite: false,
  linked_app_store: null,
  main_url: `https://${store}.com`,
  myshopify: `${store}.myshopify.com`,
  secondary_url: null,
});

describe('a key card', () => {
  it("names its license health after its store, so two cards' regions are told apart", async () => {
    fakeApi({ 'GET /keys/health': () => json(200, []) });
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    render(
      <QueryClientProvider client={client}>
        <MemoryRouter>
          {[key(1, 'aurora'), key(2, 'bloom')].map((k) => (
            <KeyCard key={k.id} card={deriveStoreCard(k)} onDisconnect={() => undefined} />
          ))}
        </MemoryRouter>
      </QueryClientProvider>,
    );
    const regions = screen.getAllByRole('region');
    expect(regions.map((region) => region.getAttribute('aria-label'))).toEqual([
      'License health of aurora',
      'License health of bloom',
    ]);
  });
});
