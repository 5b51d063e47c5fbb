import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { StaffCreditPack } from '@keyport/shared/contracts/credits';
import { fakeApi, json } from '../../../test/fake-api';
import { renderStaffPage } from '../../../test/render-staff-page';
import { CreditPacksEditor } from './credit-packs-editor';

const PACK: StaffCreditPack = {
  id: 2,
  name: '12 credits',
  credits: 12,
  price: '$50.00',
  price_cents: 5_000,
  priceId: 'price_pack_12',
  active: true,
};

function setup() {
  const api = fakeApi({
    'GET /staff/credit-packs': () => json(200, { packs: [PACK] }),
    'POST /staff/credit-packs': () => json(201, { pack: { ...PACK, id: 3, name: '30 credits' } }),
    'PUT /staff/credit-packs/2': () => json(200, { pack: PACK }),
  });
  return { api, user: renderStaffPage('/staff/catalogue', <CreditPacksEditor />) };
}

describe('the credit packs editor', () => {
  it('creates a credit pack with the reason, then offers an empty form again', async () => {
    const { api, user } = setup();
    await user.click(await screen.findByRole('button', { name: 'New credit pack' }));
    let dialog = screen.getByRole('dialog', { name: 'New credit pack' });
    await user.type(within(dialog).getByRole('textbox', { name: 'Name' }), '30 credits');
    const credits = within(dialog).getByRole('spinbutton', { name: 'Credits' });
    await user.clear(credits);
    await user.type(credits, '30');
    await user.type(within(dialog).getByRole('textbox', { name: 'Price (USD)' }), '100');
    await user.type(within(dialog).getByRole('textbox', { name: 'Reason' }), 'A bigger pack for agencies');
    await user.click(within(dialog).getByRole('button', { name: 'Create pack' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(api.callsTo('POST', '/staff/credit-packs').map((call) => call.body)).toEqual([
      {
        name: '30 credits',
        credits: 30,
        amount_cents: 10_000,
        provider_price_id: null,
        active: true,
        reason: 'A bigger pack for agencies',
      },
    ]);

    await user.click(screen.getByRole('button', { name: 'New credit pack' }));
    dialog = screen.getByRole('dialog', { name: 'New credit pack' });
    expect(within(dialog).getByRole('textbox', { name: 'Name' })).toHaveValue('');
    expect(within(dialog).getByRole('spinbutton', { name: 'Credits' })).toHaveValue(10);
  });

  it('shows every field’s error at once, in the contract’s words, and sends nothing', async () => {
    const { api, user } = setup();
    await user.click(await screen.findByRole('button', { name: 'New credit pack' }));
    const dialog = screen.getByRole('dialog', { name: 'New credit pack' });
    await user.clear(within(dialog).getByRole('spinbutton', { name: 'Credits' }));
    await user.type(within(dialog).getByRole('textbox', { name: 'Price (USD)' }), '0.10');
    await user.click(within(dialog).getByRole('button', { name: 'Create pack' }));
    expect(await within(dialog).findByText('A name is required')).toBeTruthy();
    expect(within(dialog).getByText('Enter a whole number')).toBeTruthy();
    expect(within(dialog).getByText('amount_cents must be at least 50')).toBeTruthy();
    expect(within(dialog).getByRole('textbox', { name: 'Reason' })).toHaveAttribute('aria-invalid', 'true');
    expect(api.callsTo('POST', '/staff/credit-packs')).toHaveLength(0);
  });

  it('edits a pack: its values are in the form, the whole pack is sent with the change', async () => {
    const { api, user } = setup();
    await user.click(await screen.findByRole('button', { name: 'Edit' }));
    const dialog = screen.getByRole('dialog', { name: 'Edit 12 credits' });
    expect(within(dialog).getByRole('textbox', { name: 'Price (USD)' })).toHaveValue('50.00');
    expect(within(dialog).getByRole('textbox', { name: 'Provider price id' })).toHaveValue('price_pack_12');
    await user.click(within(dialog).getByRole('checkbox', { name: 'On sale' }));
    await user.type(within(dialog).getByRole('textbox', { name: 'Reason' }), 'Retired for the winter');
    await user.click(within(dialog).getByRole('button', { name: 'Save pack' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(api.callsTo('PUT', '/staff/credit-packs/2').map((call) => call.body)).toEqual([
      {
        name: '12 credits',
        credits: 12,
        amount_cents: 5_000,
        provider_price_id: 'price_pack_12',
        active: false,
        reason: 'Retired for the winter',
      },
    ]);
  });
});
