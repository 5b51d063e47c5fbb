import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SettingsDialogProvider } from '../features/account/components/settings-dialog-provider';
import { UserMenu } from '../features/account/components/user-menu';
import { STORAGE_KEYS } from '../lib/storage-keys';
import { fakeApi, json } from '../test/fake-api';
import { QuickActionsMenu } from './quick-actions-menu';

afterEach(() => vi.unstubAllGlobals());

const ME = { id: 1, email: 'erika@example.com', name: 'Erika Mustermann', role: null, has_lifetime_support: null };
const LINKS = {
  shopUrl: 'https://shop.example.com',
  productUrl: 'https://shop.example.com/theme',
  appStoreUrl: 'https://apps.example.com/keyport',
  sellStoreFormUrl: 'https://forms.example.com/sell',
  setupGuideVideoUrl: null,
};

/** The window as wide as `px`: `matchMedia` answers Tailwind's breakpoints for it. */
function windowWidth(px: number) {
  vi.stubGlobal('matchMedia', (query: string) => ({
    matches: Number(/min-width: (\d+)rem/.exec(query)?.[1] ?? 0) * 16 <= px,
    addEventListener: () => undefined,
    removeEventListener: () => undefined,
  }));
}

function renderMenu(url: string) {
  localStorage.setItem(STORAGE_KEYS.sessionToken, 'session-token');
  fakeApi({
    'GET /auth/me': () => json(200, { ...ME, orders: [] }),
    'GET /config': () => json(200, { links: LINKS }),
  });
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <MemoryRouter initialEntries={[url]}>
        <SettingsDialogProvider>
          <UserMenu quickActions={<QuickActionsMenu />} />
        </SettingsDialogProvider>
      </MemoryRouter>
    </QueryClientProvider>,
  );
  return userEvent.setup();
}

/** Opens the menu once its code is here (the placeholder button gives way to Radix's trigger), from the keyboard. */
async function openMenu(user: ReturnType<typeof userEvent.setup>) {
  await waitFor(() => expect(screen.getByRole('button', { name: /user menu/ })).toHaveAttribute('data-state'));
  screen.getByRole('button', { name: /user menu/ }).focus();
  await user.keyboard('{Enter}');
}

describe('the user menu', () => {
  it('opens when pressed before its code is here, even when the real trigger takes the place of the button pressed', async () => {
    windowWidth(1440);
    renderMenu('/customer/my-keys');
    // The placeholder (no Radix state yet) is pressed; the click that would end the press never reaches it.
    const placeholder = screen.getByRole('button', { name: /user menu/ });
    expect(placeholder).not.toHaveAttribute('data-state');
    fireEvent.pointerDown(placeholder, { button: 0 });
    expect(await screen.findByRole('menu', {}, { timeout: 5_000 })).toBeVisible();
  });

  it("is named by the person's name it shows, then what it is (WCAG 2.5.3 label in name)", async () => {
    windowWidth(1440);
    renderMenu('/customer/my-keys');
    const button = await screen.findByRole('button', { name: 'Erika Mustermann (user menu)' });
    expect(button).toHaveAttribute('aria-haspopup', 'menu');
    expect(button).not.toHaveAttribute('aria-label');
  });

  it('below xl (the Quick Actions panel is hidden) holds Update Theme, Upgrade Files and Sell Your Store', async () => {
    windowWidth(390);
    const user = renderMenu('/customer/my-keys?q=harbor&page=2');
    await openMenu(user);
    expect(await screen.findByRole('menuitem', { name: 'Update Theme' }, { timeout: 5_000 })).toHaveAttribute(
      'href',
      '/customer/update_file',
    );
    // Over the dashboard as it is: its search and page stay.
    expect(screen.getByRole('menuitem', { name: 'Upgrade Files' })).toHaveAttribute(
      'href',
      '/customer/my-keys?q=harbor&page=2&dialog=upgrade-files',
    );
    const sell = await screen.findByRole('menuitem', { name: 'Sell Your Store (opens in a new tab)' });
    expect(sell).toHaveAttribute('href', LINKS.sellStoreFormUrl);
    expect(sell).toHaveAttribute('target', '_blank');
  });

  it('from another page, Upgrade Files opens the dialog over the dashboard', async () => {
    windowWidth(768);
    const user = renderMenu('/customer/marketplace');
    await openMenu(user);
    expect(await screen.findByRole('menuitem', { name: 'Upgrade Files' }, { timeout: 5_000 })).toHaveAttribute(
      'href',
      '/customer/my-keys?dialog=upgrade-files',
    );
  });

  it('from xl, where the panel shows them, leaves them out', async () => {
    windowWidth(1280);
    const user = renderMenu('/customer/my-keys');
    await openMenu(user);
    expect(await screen.findByRole('menuitem', { name: 'Settings' }, { timeout: 5_000 })).toBeInTheDocument();
    expect(screen.queryByRole('menuitem', { name: 'Update Theme' })).toBeNull();
    expect(screen.queryByRole('menuitem', { name: 'Upgrade Files' })).toBeNull();
  });
});
