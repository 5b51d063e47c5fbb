import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { StaffRedeemProduct } from '@keyport/shared/contracts/credits';
import { fakeApi, json } from '../../../test/fake-api';
import { renderStaffPage } from '../../../test/render-staff-page';
import { RedeemProductsEditor } from './redeem-products-editor';

const PRODUCT: StaffRedeemProduct = {
  id: 5,
  name: 'PRO License',
  description: 'A new PRO license key.',
  grant_type: 'license_level',
  grant_value: 'PRO',
  cost_credits: 10,
  active: true,
  created_at: '2026-11-01T00:00:00.000Z',
  updated_at: '2026-11-01T00:00:00.000Z',
};

function setup() {
  const api = fakeApi({
    'GET /staff/redeem-products': () => json(200, { redeem_products: [PRODUCT] }),
    'PUT /staff/redeem-products/5': () => json(200, { redeem_product: PRODUCT }),
    'DELETE /staff/redeem-products/5': () =>
      json(409, { error: 'This product was changed by someone else.', code: 'conflict' }),
  });
  return { api, user: renderStaffPage('/staff/catalogue', <RedeemProductsEditor />) };
}

describe('the redeem products editor', () => {
  it('edits a product: a cost that is not a whole number is refused, then the product is sent, still offered', async () => {
    const { api, user } = setup();
    await user.click(await screen.findByRole('button', { name: 'Edit' }));
    const dialog = screen.getByRole('dialog', { name: 'Edit PRO License' });
    const cost = within(dialog).getByRole('spinbutton', { name: 'Cost (credits)' });
    expect(cost).toHaveValue(10);
    await user.clear(cost);
    await user.type(within(dialog).getByRole('textbox', { name: 'Reason' }), 'Cheaper for the holidays');
    await user.click(within(dialog).getByRole('button', { name: 'Save product' }));
    expect(await within(dialog).findByText('Enter a whole number')).toBeTruthy();
    expect(api.callsTo('PUT', '/staff/redeem-products/5')).toHaveLength(0);

    await user.type(cost, '8');
    await user.click(within(dialog).getByRole('button', { name: 'Save product' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(api.callsTo('PUT', '/staff/redeem-products/5').map((call) => call.body)).toEqual([
      {
        name: 'PRO License',
        description: 'A new PRO license key.',
        grant_type: 'license_level',
        grant_value: 'PRO',
        cost_credits: 8,
        active: true,
        reason: 'Cheaper for the holidays',
      },
    ]);
  });

  it('retires a product with a reason; a server refusal stays in the dialog', async () => {
    const { api, user } = setup();
    await user.click(await screen.findByRole('button', { name: 'Retire' }));
    const dialog = screen.getByRole('dialog', { name: 'Retire PRO License?' });
    await user.type(within(dialog).getByRole('textbox', { name: 'Reason' }), 'No longer sold');
    await user.click(within(dialog).getByRole('button', { name: 'Retire product' }));
    expect(await within(dialog).findByText('This product was changed by someone else.')).toBeTruthy();
    expect(api.callsTo('DELETE', '/staff/redeem-products/5').map((call) => call.body)).toEqual([
      { reason: 'No longer sold' },
    ]);
  });
});
