import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Key } from '@keyport/shared/contracts/keys';
import { COUNTRIES, fakeApi, json, LITE_KEY, LITE_TO_PRO, PRO_KEY, REGULAR_KEY, TO_REGULAR } from '../test/fake-api';
import { UpgradeLicenseAction } from './upgrade-license-action';

afterEach(() => vi.unstubAllGlobals());

function renderAction(licenseKey: Key, onUpgradeTheme: () => void = () => undefined) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <MemoryRouter>
        <UpgradeLicenseAction licenseKey={licenseKey} onUpgradeTheme={onUpgradeTheme} />
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

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
    expect(screen.queryByRole('button', { name: 'Upgrade' })).toBeNull();
  });

  it.each([LITE_KEY, REGULAR_KEY])(
    'opens Upgrade Options, then Upgrade License; focus returns to the button on close',
    async (key) => {
      api(() => json(200, { key, options: [TO_REGULAR] }));
      const user = userEvent.setup();
      renderAction(key);
      const button = screen.getByRole('button', { name: 'Upgrade' });
      await user.click(button);
      const options = await screen.findByRole('dialog', { name: 'Upgrade Options' });
      await within(options).findByText('Move to REGULAR, from $120.00');
      await user.click(within(options).getByRole('button', { name: /Upgrade License/ }));
      expect(await screen.findByRole('dialog', { name: 'Upgrade License' })).toBeInTheDocument();
      expect(screen.queryByRole('dialog', { name: 'Upgrade Options' })).toBeNull();
      await user.keyboard('{Escape}');
      await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
      expect(button).toHaveFocus();
    },
  );

  it('Upgrade Theme closes Upgrade Options and hands over to the theme-file upgrade', async () => {
    api(() => json(200, { key: LITE_KEY, options: [TO_REGULAR, LITE_TO_PRO] }));
    const onUpgradeTheme = vi.fn();
    const user = userEvent.setup();
    renderAction(LITE_KEY, onUpgradeTheme);
    await user.click(screen.getByRole('button', { name: 'Upgrade' }));
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
    await user.click(screen.getByRole('button', { name: 'Upgrade' }));
    const options = await screen.findByRole('dialog', { name: 'Upgrade Options' });
    expect(await within(options).findByRole('alert')).toHaveTextContent(/^Failed to check upgrade options$/);
    expect(within(options).getByRole('button', { name: /Upgrade License/ })).toBeEnabled();
  });

  it("says 'No upgrade available for your license level' when the server lists none (the key became PRO)", async () => {
    api(() => json(200, { key: PRO_KEY, options: [] }));
    const user = userEvent.setup();
    renderAction(LITE_KEY); // the card still shows LITE: another tab upgraded it
    await user.click(screen.getByRole('button', { name: 'Upgrade' }));
    const options = await screen.findByRole('dialog', { name: 'Upgrade Options' });
    expect(await within(options).findByRole('status')).toHaveTextContent(
      /^No upgrade available for your license level$/,
    );
    expect(within(options).getByRole('button', { name: /Upgrade License/ })).toBeDisabled();
  });
});
