import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeApi, json } from '../../test/fake-api';
import { LoginPage } from './login-page';

afterEach(() => {
  vi.unstubAllGlobals();
});

function Landed() {
  const location = useLocation();
  return <p>landed on {`${location.pathname}${location.search}`}</p>;
}

/** Signs in on /login (at `url`) as a user with `role`, and returns where the page went. */
async function signIn(role: string | null, url = '/login') {
  fakeApi({
    'POST /auth/login': () =>
      json(200, {
        token: 'session-token',
        user: { id: 7, email: 'who@example.com', name: 'Who', role, has_lifetime_support: null, orders: [] },
      }),
  });
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <MemoryRouter initialEntries={[url]}>
        <Routes>
          <Route path="/login" element={<LoginPage />} />
          <Route path="*" element={<Landed />} />
        </Routes>
      </MemoryRouter>
    </QueryClientProvider>,
  );
  const user = userEvent.setup();
  await user.type(screen.getByLabelText('Email'), 'who@example.com');
  await user.type(screen.getByLabelText('Password'), 'a-password');
  await user.click(screen.getByRole('button', { name: 'Sign in' }));
  return (await screen.findByText(/^landed on /)).textContent;
}

describe('where signing in lands (issue 21)', () => {
  it('takes staff to the staff console', async () => {
    expect(await signIn('staff')).toBe('landed on /staff');
  });

  it('takes a customer to their keys', async () => {
    expect(await signIn(null)).toBe('landed on /customer/my-keys');
  });

  it('takes a team member to their keys', async () => {
    expect(await signIn('team')).toBe('landed on /customer/my-keys');
  });

  it('takes anyone, staff included, back to the page they were going to', async () => {
    expect(await signIn('staff', '/login?next=%2Fcustomer%2Fmy-keys%2F3')).toBe('landed on /customer/my-keys/3');
  });

  it('never follows a next that leaves the app', async () => {
    expect(await signIn('staff', '/login?next=%2F%2Fevil.example')).toBe('landed on /customer/my-keys');
  });
});
