import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { StaffCreditPack, StaffRedeemProduct } from '@keyport/shared/contracts/credits';
import type { UpgradePrice } from '@keyport/shared/contracts/upgrades';
import { fakeApi, json } from '../../../test/fake-api';
import { renderStaffPage } from '../../../test/render-staff-page';
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

describe('the catalogue page', () => {
  it('has its three editors: upgrade prices (saying when one cannot be bought by card), credit packs, redeem products', async () => {
    fakeApi({
      'GET /staff/upgrade-prices': () => json(200, { prices: PRICES }),
      'GET /staff/credit-packs': () => json(200, { packs: [PACK] }),
      'GET /staff/redeem-products': () => json(200, { redeem_products: [PRODUCT] }),
    });
    renderStaffPage('/staff/catalogue', <CataloguePage />);
    expect(screen.getByRole('heading', { level: 1, name: 'Catalogue' })).toBeTruthy();
    expect(screen.getAllByRole('heading', { level: 2 }).map((heading) => heading.textContent)).toEqual([
      'Upgrade prices',
      'Credit packs',
      'Redeem products',
    ]);
    const prices = await screen.findByRole('table', { name: 'Upgrade prices' });
    await within(prices).findByText('$120.00');
    expect(within(prices).getByText('none (not buyable by card)')).toBeTruthy();
    const packs = await screen.findByRole('table', { name: 'Credit packs' });
    expect(within(packs).getAllByRole('row')[1]).toHaveTextContent('12 credits12$50.00price_pack_12on sale');
    const products = await screen.findByRole('table', { name: 'Redeem products' });
    expect(within(products).getAllByRole('row')[1]).toHaveTextContent('PRO License');
    expect(within(products).getAllByRole('row')[1]).toHaveTextContent('license_level: PRO');
  });
});
