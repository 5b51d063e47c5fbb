import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, useLocation, useNavigate } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Key } from '@keyport/shared/contracts/keys';
import { COUNTRIES, fakeApi, json, LITE_KEY, LITE_TO_PRO, PRO_KEY, REGULAR_KEY, TO_REGULAR } from '../test/fake-api';
import { UpgradeLicenseAction } from './upgrade-license-action';

afterEach(() => vi.unstubAllGlobals());

/** The browser's address and its Back button, as far as the test needs them. */
function Browser() {
  const location = useLocation();
  const navigate = useNavigate();
  return (
    <>
      <p data-testid="url">{location.pathname + location.search}</p>
      <button type="button" onClick={() => void navigate(-1)}>
        Browser back
      </button>
    </>
  );
}

function renderAction(
  licenseKey: Key,
  onUpgradeTheme: () => void = () => undefined,
  url = '/customer/my-keys?q=harbor',
) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <MemoryRouter initialEntries={['/customer/other', url]} initialIndex={1}>
        <UpgradeLicenseAction licenseKey={licenseKey} onUpgradeTheme={onUpgradeTheme} />
        <Browser />
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

const url = () => screen.getByTestId('url').textContent;

function api(options: Parameters<typeof fakeApi>[0][string]) {
  return fakeApi({
    'POST /upgrades/options': options,
    'GET /stripe/config': () => json(200, { publishableKey: 'pk_sandbox_x' }),
    'GET /stripe/paypal/config': () => json(200, { mode: 'sandbox', clientId: null }),
    'GET /countries': () => json(200, COUNTRIES),
    'POST /stripe/vat/calculate': () =>
      json(200, { base_amount: 12000, vat_amount: 0, total_amount: 12000, vat_rate: 0, reverse_charge: false }),
  });
}

describe('the key card’s Upgrade button and Upgrade Options (§2 dialog 5)', () => {
  it('is absent on PRO cards', () => {
    renderAction(PRO_KEY);
    expect(screen.queryByRole('button', { name: /^Upgrade/ })).toBeNull();
  });

  it.each([LITE_KEY, REGULAR_KEY])(
    'opens Upgrade Options, then Upgrade License; focus returns to the button on close',
    async (key) => {
      api(() => json(200, { key, options: [TO_REGULAR] }));
      const user = userEvent.setup();
      renderAction(key);
      const button = screen.getByRole('button', { name: 'Upgrade harbor-goods' });
      await user.click(button);
      const options = await screen.findByRole('dialog', { name: 'Upgrade Options' });
      await within(options).findByText('Move to REGULAR, from $120.00');
      await user.click(within(options).getByRole('button', { name: /Upgrade License/ }));
      // The dialog's code loads on first use: give the import time on a busy machine.
      expect(await screen.findByRole('dialog', { name: 'Upgrade License' }, { timeout: 5_000 })).toBeInTheDocument();
      expect(screen.queryByRole('dialog', { name: 'Upgrade Options' })).toBeNull();
      await user.keyboard('{Escape}');
      await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
      expect(button).toHaveFocus();
    },
  );

  it('names its key: the visible "Upgrade" comes first, then which card it upgrades', () => {
    renderAction(LITE_KEY);
    const button = screen.getByRole('button', { name: 'Upgrade harbor-goods' });
    expect(button.textContent).toMatch(/^Upgrade/);
    renderAction({ ...LITE_KEY, id: 3, main_url: null, myshopify: null });
    expect(screen.getByRole('button', { name: 'Upgrade LITE License LITE-AAAA-BBBB-CCCC' })).toBeInTheDocument();
  });

  it('lives in the URL: Back closes the dialog and stays on the dashboard, keeping its search', async () => {
    api(() => json(200, { key: LITE_KEY, options: [TO_REGULAR] }));
    const user = userEvent.setup();
    renderAction(LITE_KEY);
    await user.click(screen.getByRole('button', { name: 'Upgrade harbor-goods' }));
    expect(url()).toBe('/customer/my-keys?q=harbor&dialog=upgrade-options&key=7');
    const options = await screen.findByRole('dialog', { name: 'Upgrade Options' });
    await user.click(within(options).getByRole('button', { name: /Upgrade License/ }));
    expect(url()).toBe('/customer/my-keys?q=harbor&dialog=upgrade&key=7');
    expect(await screen.findByRole('dialog', { name: 'Upgrade License' }, { timeout: 5_000 })).toBeInTheDocument();

    // The browser's own Back (behind the modal, which blocks the page's pointer events).
    fireEvent.click(screen.getByRole('button', { name: 'Browser back', hidden: true }));
    expect(url()).toBe('/customer/my-keys?q=harbor');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('opens from the URL (a reload, a link), and closing it then only drops the parameters', async () => {
    api(() => json(200, { key: LITE_KEY, options: [TO_REGULAR] }));
    const user = userEvent.setup();
    renderAction(LITE_KEY, undefined, '/customer/my-keys?page=2&dialog=upgrade&key=7');
    expect(await screen.findByRole('dialog', { name: 'Upgrade License' }, { timeout: 5_000 })).toBeInTheDocument();
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(url()).toBe('/customer/my-keys?page=2');
  });

  it("another key's dialog in the URL is not this card's", () => {
    renderAction(LITE_KEY, undefined, '/customer/my-keys?dialog=upgrade&key=8');
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('Upgrade Theme closes Upgrade Options and hands over to the theme-file update', async () => {
    api(() => json(200, { key: LITE_KEY, options: [TO_REGULAR, LITE_TO_PRO] }));
    const onUpgradeTheme = vi.fn();
    const user = userEvent.setup();
    renderAction(LITE_KEY, onUpgradeTheme);
    await user.click(screen.getByRole('button', { name: 'Upgrade harbor-goods' }));
    const options = await screen.findByRole('dialog', { name: 'Upgrade Options' });
    await within(options).findByText('Move to REGULAR or PRO, from $120.00');
    expect(within(options).queryByText('Soon')).toBeNull();
    await user.click(within(options).getByRole('button', { name: /Upgrade Theme/ }));
    expect(onUpgradeTheme).toHaveBeenCalledTimes(1);
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it("says 'Failed to check upgrade options' when the options cannot be read; Upgrade License still opens", async () => {
    api(() => json(500, { error: 'Internal Server Error', code: 'internal' }));
    const user = userEvent.setup();
    renderAction(LITE_KEY);
    await user.click(screen.getByRole('button', { name: 'Upgrade harbor-goods' }));
    const options = await screen.findByRole('dialog', { name: 'Upgrade Options' });
    expect(await within(options).findByRole('alert')).toHaveTextContent(/^Failed to check upgrade options$/);
    expect(within(options).getByRole('button', { name: /Upgrade License/ })).toBeEnabled();
  });

  it("says 'No upgrade available for your license level' when the server lists none (the key became PRO)", async () => {
    api(() => json(200, { key: PRO_KEY, options: [] }));
    const user = userEvent.setup();
    renderAction(LITE_KEY); // the card still shows LITE: another tab upgraded it
    await user.click(screen.getByRole('button', { name: 'Upgrade harbor-goods' }));
    const options = await screen.findByRole('dialog', { name: 'Upgrade Options' });
    expect(await within(options).findByRole('status')).toHaveTextContent(
      /^No upgrade available for your license level$/,
    );
    expect(within(options).getByRole('button', { name: /Upgrade License/ })).toBeDisabled();
  });
});
