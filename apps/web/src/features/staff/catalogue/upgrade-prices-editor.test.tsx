import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { UpgradePrice } from '@keyport/shared/contracts/upgrades';
import { fakeApi, json } from '../../../test/fake-api';
import { renderStaffPage } from '../../../test/render-staff-page';
import { UpgradePricesEditor } from './upgrade-prices-editor';

const PRICES: UpgradePrice[] = [
  { path: 'LITE_TO_REGULAR', from: 'LITE', to: 'REGULAR', amount_cents: 12_000, currency: 'usd', price_id: 'price_1' },
  { path: 'REGULAR_TO_PRO', from: 'REGULAR', to: 'PRO', amount_cents: 22_000, currency: 'usd', price_id: null },
];

function setup() {
  const api = fakeApi({
    'GET /staff/upgrade-prices': () => json(200, { prices: PRICES }),
    'PUT /staff/upgrade-prices': () => json(200, { prices: PRICES }),
  });
  const user = renderStaffPage('/staff/catalogue', <UpgradePricesEditor />);
  const edit = async (row: number) => {
    const table = await screen.findByRole('table', { name: 'Upgrade prices' });
    await user.click((await within(table).findAllByRole('button', { name: 'Edit' }))[row]!);
    return screen.getByRole('dialog');
  };
  return { api, user, edit };
}

describe('the upgrade prices editor', () => {
  it('a new price is checked in the browser, then saved with the reason', async () => {
    const { api, user, edit } = setup();
    const dialog = await edit(1);
    expect(dialog).toHaveAccessibleName('Price of REGULAR to PRO');
    const amount = within(dialog).getByRole('textbox', { name: 'Price (USD)' });
    expect(amount).toHaveValue('220.00');
    await user.clear(amount);
    await user.type(amount, 'free');
    await user.type(within(dialog).getByRole('textbox', { name: 'Reason' }), 'Black Friday');
    await user.click(within(dialog).getByRole('button', { name: 'Save price' }));
    expect(await within(dialog).findByText('Enter a price such as 120.00')).toBeTruthy();
    expect(amount).toHaveAttribute('aria-invalid', 'true');
    expect(api.callsTo('PUT', '/staff/upgrade-prices')).toHaveLength(0);

    await user.clear(amount);
    await user.type(amount, '199.50');
    await user.type(within(dialog).getByRole('textbox', { name: 'Provider price id' }), 'price_bf');
    await user.click(within(dialog).getByRole('button', { name: 'Save price' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(api.callsTo('PUT', '/staff/upgrade-prices').map((call) => call.body)).toEqual([
      { prices: [{ path: 'REGULAR_TO_PRO', amount_cents: 19_950, price_id: 'price_bf' }], reason: 'Black Friday' },
    ]);
  });

  it('applies the contract: a price under its minimum is refused with its message, an emptied price id is null', async () => {
    const { api, user, edit } = setup();
    const dialog = await edit(0);
    const amount = within(dialog).getByRole('textbox', { name: 'Price (USD)' });
    await user.clear(amount);
    await user.type(amount, '0.99');
    await user.clear(within(dialog).getByRole('textbox', { name: 'Provider price id' }));
    await user.click(within(dialog).getByRole('button', { name: 'Save price' }));
    // The price's error and the reason's, at once; nothing is sent.
    expect(await within(dialog).findByText('amount_cents must be at least 100')).toBeTruthy();
    expect(within(dialog).getByRole('textbox', { name: 'Reason' })).toHaveAttribute('aria-invalid', 'true');
    expect(api.callsTo('PUT', '/staff/upgrade-prices')).toHaveLength(0);

    await user.clear(amount);
    await user.type(amount, '$1,000');
    await user.type(within(dialog).getByRole('textbox', { name: 'Reason' }), 'No card price for now');
    await user.click(within(dialog).getByRole('button', { name: 'Save price' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(api.callsTo('PUT', '/staff/upgrade-prices').map((call) => call.body)).toEqual([
      {
        prices: [{ path: 'LITE_TO_REGULAR', amount_cents: 100_000, price_id: null }],
        reason: 'No card price for now',
      },
    ]);
  });
});
