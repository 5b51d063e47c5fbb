import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactNode } from 'react';
import { MemoryRouter, Route, Routes } from 'react-router';

/**
 * Renders one staff console page at `url` (its route `path`), with a fresh query client that does not retry, and
 * returns a user-event session. `extra` renders beside the page inside the router (e.g. a location probe).
 */
export function renderStaffPage(path: string, page: ReactNode, url: string = path, extra?: ReactNode) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <MemoryRouter initialEntries={[url]}>
        <Routes>
          <Route path={path} element={page} />
        </Routes>
        {extra}
      </MemoryRouter>
    </QueryClientProvider>,
  );
  return userEvent.setup();
}
