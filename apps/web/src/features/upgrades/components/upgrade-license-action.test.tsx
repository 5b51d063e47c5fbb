import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Key } from '@keyport/shared/contracts/keys';
import { COUNTRIES, fakeApi, json, LITE_KEY, PRO_KEY, REGULAR_KEY, TO_REGULAR } from '../test/fake-api';
import { UpgradeLicenseAction } from './upgrade-license-action';

afterEach(() => vi.unstubAllGlobals());

function renderAction(licenseKey: Key) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <MemoryRouter>
        <UpgradeLicenseAction licenseKey={licenseKey} />
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

describe('the key card’s Upgrade button', () => {
  it('is absent on PRO cards', () => {
    renderAction(PRO_KEY);
    expect(screen.queryByRole('button', { name: 'Upgrade' })).toBeNull();
  });

  it.each([LITE_KEY, REGULAR_KEY])('opens the Upgrade License dialog; focus returns to it on close', async (key) => {
    fakeApi({
      'POST /upgrades/options': () => json(200, { key, options: [TO_REGULAR] }),
      'GET /stripe/config': () => json(200, { publishableKey: 'pk_sandbox_x' }),
      'GET /countries': () => json(200, COUNTRIES),
      'POST /stripe/vat/calculate': () =>
        json(200, { base_amount: 12000, vat_amount: 0, total_amount: 12000, vat_rate: 0, reverse_charge: false }),
    });
    const user = userEvent.setup();
    renderAction(key);
    const button = screen.getByRole('button', { name: 'Upgrade' });
    await user.click(button);
    expect(await screen.findByRole('dialog', { name: 'Upgrade License' })).toBeInTheDocument();
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(button).toHaveFocus();
  });
});
