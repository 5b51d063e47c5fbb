import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, useLocation, useNavigate } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Key } from '@keyport/shared/contracts/keys';
import { fakeApi, json } from '../../../test/fake-api';
import { KeysBoard } from './keys-board';

afterEach(() => vi.unstubAllGlobals());

/** Nine keys with no store (no health calls): 1–3 PRO, 4–6 REGULAR, 7–9 LITE; the key text names its id. */
const KEYS: Key[] = Array.from({ length: 9 }, (_, i) => ({
  id: i + 1,
  api_key: `KEY0${i + 1}-AAAAA-BBBBB-CCCCC-DDDDD`,
  pro: i < 3,
  lite: i >= 6,
  linked_app_store: null,
  main_url: null,
  myshopify: null,
  secondary_url: null,
}));

function Browser() {
  const location = useLocation();
  const navigate = useNavigate();
  return (
    <>
      <p data-testid="url">{location.search}</p>
      <button type="button" onClick={() => void navigate(-1)}>
        Browser back
      </button>
      <button type="button" onClick={() => void navigate('/customer/my-keys?q=KEY08')}>
        Follow a link
      </button>
    </>
  );
}

function renderBoard(url = '/customer/my-keys', keys: Key[] = KEYS) {
  fakeApi({ 'GET /keys/': () => json(200, keys) });
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <MemoryRouter initialEntries={['/login', url]} initialIndex={1}>
        <KeysBoard links={undefined} />
        <Browser />
      </MemoryRouter>
    </QueryClientProvider>,
  );
  return userEvent.setup();
}

const url = () => screen.getByTestId('url').textContent;
const shownKeys = () => screen.getAllByTestId('key-card').map((card) => within(card).getByText(/^KEY0/).textContent);

describe('the keys board keeps its view in the URL', () => {
  it('the page is in the URL: a reload shows the same page, Back returns to the page before', async () => {
    const user = renderBoard();
    await screen.findAllByTestId('key-card');
    await user.click(screen.getByRole('button', { name: 'Page 2' }));
    expect(url()).toBe('?page=2');
    expect(shownKeys()).toHaveLength(3);

    fireEvent.click(screen.getByRole('button', { name: 'Browser back' }));
    expect(url()).toBe('');
    expect(screen.getByRole('button', { name: 'Page 1' })).toHaveAttribute('aria-current', 'page');
  });

  it('opens on the page the URL names', async () => {
    renderBoard('/customer/my-keys?page=2');
    await screen.findAllByTestId('key-card');
    expect(shownKeys()).toEqual([
      'KEY07-AAAAA-BBBBB-CCCCC-DDDDD',
      'KEY08-AAAAA-BBBBB-CCCCC-DDDDD',
      'KEY09-AAAAA-BBBBB-CCCCC-DDDDD',
    ]);
  });

  it('a search or a filter goes into the URL and starts again at page 1 (§4)', async () => {
    const user = renderBoard('/customer/my-keys?page=2');
    await screen.findAllByTestId('key-card');
    await user.type(screen.getByRole('searchbox', { name: 'Search keys' }), 'KEY0');
    await waitFor(() => expect(url()).toBe('?q=KEY0'));
    await user.click(screen.getByRole('radio', { name: 'LITE' }));
    expect(url()).toBe('?q=KEY0&type=LITE');
    expect(shownKeys()).toHaveLength(3);
    await user.click(screen.getByRole('radio', { name: 'ALL' }));
    expect(url()).toBe('?q=KEY0');
  });

  it('the search box follows the URL when it changes under it (a link, Back)', async () => {
    renderBoard('/customer/my-keys?q=KEY01');
    await waitFor(() => expect(shownKeys()).toEqual(['KEY01-AAAAA-BBBBB-CCCCC-DDDDD']));
    fireEvent.click(screen.getByRole('button', { name: 'Follow a link' }));
    expect(screen.getByRole('searchbox', { name: 'Search keys' })).toHaveValue('KEY08');
    expect(shownKeys()).toEqual(['KEY08-AAAAA-BBBBB-CCCCC-DDDDD']);
    fireEvent.click(screen.getByRole('button', { name: 'Browser back' }));
    expect(screen.getByRole('searchbox', { name: 'Search keys' })).toHaveValue('KEY01');
  });

  it('a key just added is shown on its page, without a filter that would hide it, and highlighted', async () => {
    renderBoard('/customer/my-keys?type=PRO&added=8');
    await waitFor(() => expect(url()).toBe('?page=2'));
    const added = screen.getAllByTestId('key-card').find((card) => card.dataset.highlighted);
    expect(added).toHaveTextContent('KEY08-AAAAA-BBBBB-CCCCC-DDDDD');
    expect(added).toHaveAccessibleName('LITE License, LITE license, just added');
    expect(within(added!).getByText('New')).toBeInTheDocument();
    expect(screen.getAllByTestId('key-card').filter((card) => card.dataset.highlighted)).toHaveLength(1);
  });

  it('a key just added that the filter shows keeps the filter', async () => {
    renderBoard('/customer/my-keys?type=LITE&added=8');
    await waitFor(() => expect(url()).toBe('?type=LITE'));
    expect(shownKeys()).toHaveLength(3);
  });
});
