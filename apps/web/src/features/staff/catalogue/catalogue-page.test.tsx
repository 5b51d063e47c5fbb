import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import type { StaffCreditPack, StaffRedeemProduct } from '@keyport/shared/contracts/credits';
import type { UpgradePrice } from '@keyport/shared/contracts/upgrades';
import { fakeApi, json } from '../../../test/fake-api';
import { CataloguePage } from './catalogue-page';

const PRICES: UpgradePrice[] = [
  { path: 'LITE_TO_REGULAR', from: 'LITE', to: 'REGULAR', amount_cents: 12_000, currency: 'usd', price_id: 'price_1' },
  { path: 'REGULAR_TO_PRO', from: 'REGULAR', to: 'PRO', amount_cents: 22_000, currency: 'usd', price_id: null },
];
const PACK: StaffCreditPack = {
  id: 2,
  name: '12 credits',
  credits: 12,
  price: '$50.00',
  price_cents: 5_000,
  priceId: 'price_pack_12',
  active: true,
};
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

const CATALOGUE = {
  'GET /staff/upgrade-prices': () => json(200, { prices: PRICES }),
  'GET /staff/credit-packs': () => json(200, { packs: [PACK] }),
  'GET /staff/redeem-products': () => json(200, { redeem_products: [PRODUCT] }),
};

function renderPage() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <MemoryRouter>
        <CataloguePage />
      </MemoryRouter>
    </QueryClientProvider>,
  );
  return userEvent.setup();
}

describe('the catalogue page', () => {
  it('lists upgrade prices (saying when one cannot be bought by card), credit packs and redeem products', async () => {
    fakeApi(CATALOGUE);
    renderPage();
    const prices = await screen.findByRole('table', { name: 'Upgrade prices' });
    await within(prices).findByText('$120.00');
    expect(within(prices).getByText('none (not buyable by card)')).toBeTruthy();
    const packs = await screen.findByRole('table', { name: 'Credit packs' });
    expect(within(packs).getAllByRole('row')[1]).toHaveTextContent('12 credits12$50.00price_pack_12on sale');
    const products = await screen.findByRole('table', { name: 'Redeem products' });
    expect(within(products).getAllByRole('row')[1]).toHaveTextContent('PRO License');
    expect(within(products).getAllByRole('row')[1]).toHaveTextContent('license_level: PRO');
  });

  it('a new price is checked in the browser, then saved with the reason', async () => {
    const api = fakeApi({
      ...CATALOGUE,
      'PUT /staff/upgrade-prices': () => json(200, { prices: PRICES }),
    });
    const user = renderPage();
    const prices = await screen.findByRole('table', { name: 'Upgrade prices' });
    await user.click((await within(prices).findAllByRole('button', { name: 'Edit' }))[1]!);
    const dialog = screen.getByRole('dialog', { name: 'Price of REGULAR to PRO' });
    const amount = within(dialog).getByRole('textbox', { name: 'Price (USD)' });
    await user.clear(amount);
    await user.type(amount, 'free');
    await user.type(within(dialog).getByRole('textbox', { name: 'Reason' }), 'Black Friday');
    await user.click(within(dialog).getByRole('button', { name: 'Save price' }));
    expect(await within(dialog).findByText('Enter a price such as 120.00')).toBeTruthy();
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

  it('creates a credit pack and retires a redeem product, each with a reason; a server refusal stays in the dialog', async () => {
    const api = fakeApi({
      ...CATALOGUE,
      'POST /staff/credit-packs': () => json(201, { pack: { ...PACK, id: 3, name: '30 credits' } }),
      'DELETE /staff/redeem-products/5': () =>
        json(409, { error: 'This product was changed by someone else.', code: 'conflict' }),
    });
    const user = renderPage();
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

    await user.click(screen.getByRole('button', { name: 'Retire' }));
    dialog = screen.getByRole('dialog', { name: 'Retire PRO License?' });
    await user.type(within(dialog).getByRole('textbox', { name: 'Reason' }), 'No longer sold');
    await user.click(within(dialog).getByRole('button', { name: 'Retire product' }));
    expect(await within(dialog).findByText('This product was changed by someone else.')).toBeTruthy();
    expect(api.callsTo('DELETE', '/staff/redeem-products/5').map((call) => call.body)).toEqual([
      { reason: 'No longer sold' },
    ]);
  });
});
