import { describe, expect, it } from 'vitest';
import type { RedeemProduct } from '@keyport/shared/contracts/credits';
import { pickLicenseProducts } from './license-products';

const product = (id: number, grant_type: string, grant_value: string): RedeemProduct => ({
  id,
  name: `Product ${id}`,
  description: '',
  grant_type,
  grant_value,
  cost_credits: 1,
});

describe('§5 credit purchase list: license_level REGULAR or PRO (any case), REGULAR first', () => {
  it.each([
    [
      'REGULAR and PRO in the server’s order',
      [product(1, 'license_level', 'PRO'), product(2, 'license_level', 'REGULAR')],
      [2, 1],
    ],
    ['any case', [product(1, 'license_level', 'pro'), product(2, 'license_level', 'Regular')], [2, 1]],
    ['other grant types dropped', [product(1, 'credits', 'REGULAR'), product(2, 'license_level', 'PRO')], [2]],
    [
      'other levels dropped (LITE, unknown)',
      [product(1, 'license_level', 'LITE'), product(2, 'license_level', 'GOLD')],
      [],
    ],
    [
      'one level keeps the server’s order',
      [
        product(1, 'license_level', 'PRO'),
        product(2, 'license_level', 'REGULAR'),
        product(3, 'license_level', 'regular'),
      ],
      [2, 3, 1],
    ],
    ['nothing', [], []],
  ])('%s', (_name, products, ids) => {
    expect(pickLicenseProducts(products).map((p) => p.id)).toEqual(ids);
  });

  it('does not change the list it was given', () => {
    const products = [product(1, 'license_level', 'PRO'), product(2, 'license_level', 'REGULAR')];
    pickLicenseProducts(products);
    expect(products.map((p) => p.id)).toEqual([1, 2]);
  });
});
