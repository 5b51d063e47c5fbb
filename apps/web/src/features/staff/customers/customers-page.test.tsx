import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeApi, json } from '../../../test/fake-api';
import { CustomersPage } from './customers-page';
import { SUMMARY } from './test-data';

afterEach(() => vi.unstubAllGlobals());

function Location() {
  const location = useLocation();
  return <output data-testid="location">{location.pathname + location.search}</output>;
}

function renderPage(url: string) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <QueryClientProvider client={client}>
      <MemoryRouter initialEntries={[url]}>
        <Routes>
          <Route path="/staff/customers" element={<CustomersPage />} />
        </Routes>
        <Location />
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

describe('CustomersPage', () => {
  it('searches through the URL and links each customer to their page', async () => {
    const queries: string[] = [];
    fakeApi({
      'GET /staff/customers': () => json(200, { customers: [SUMMARY], next_cursor: '7' }),
    });
    const original = globalThis.fetch;
    vi.stubGlobal('fetch', (input: RequestInfo | URL, init?: RequestInit) => {
      queries.push(new URL(String(input), 'http://localhost').search);
      return original(input, init);
    });
    const user = userEvent.setup();
    renderPage('/staff/customers');
    const table = await screen.findByRole('table', { name: 'Customers' });
    const link = await within(table).findByRole('link', { name: 'mia@example.com' });
    expect(link.getAttribute('href')).toBe('/staff/customers/7');
    expect(within(table).getByText('3 credits')).toBeTruthy();

    await user.type(screen.getByRole('textbox', { name: 'Search' }), 'mia-shop.myshopify.com');
    await user.click(screen.getByRole('button', { name: 'Apply' }));
    expect(screen.getByTestId('location').textContent).toBe('/staff/customers?q=mia-shop.myshopify.com');
    await screen.findByRole('link', { name: 'mia@example.com' });
    expect(queries.at(-1)).toBe('?q=mia-shop.myshopify.com');

    await user.click(screen.getByRole('button', { name: /Next/ }));
    expect(screen.getByTestId('location').textContent).toContain('cursor=7');
    await screen.findByRole('link', { name: 'mia@example.com' });
    expect(queries.at(-1)).toBe('?q=mia-shop.myshopify.com&cursor=7');
  });

  it('says when nothing matches', async () => {
    fakeApi({ 'GET /staff/customers': () => json(200, { customers: [], next_cursor: null }) });
    renderPage('/staff/customers?q=nobody');
    expect(await screen.findByText('No customer matches “nobody”.')).toBeTruthy();
    expect((screen.getByRole('textbox', { name: 'Search' }) as HTMLInputElement).value).toBe('nobody');
  });
});
