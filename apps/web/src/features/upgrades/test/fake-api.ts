import type { Key } from '@keyport/shared/contracts/keys';
import type { UpgradeOption } from '@keyport/shared/contracts/upgrades';

// The fake API itself is the web app's one (src/test/fake-api.ts); the fixtures below are the upgrades'.
export { deferred, fakeApi, json, type Call } from '../../../test/fake-api';

export const LITE_KEY: Key = {
  id: 7,
  api_key: 'LITE-AAAA-BBBB-CCCC',
  pro: false,
  lite: true,
  linked_app_store: null,
  main_url: 'harbor-goods.com',
  myshopify: 'harbor-goods.myshopify.com',
  secondary_url: null,
};
export const REGULAR_KEY: Key = { ...LITE_KEY, id: 8, api_key: 'REGL-AAAA-BBBB-CCCC', lite: false };
export const PRO_KEY: Key = { ...LITE_KEY, id: 9, api_key: 'PROO-AAAA-BBBB-CCCC', pro: true, lite: false };

export const TO_REGULAR: UpgradeOption = {
  path: 'LITE_TO_REGULAR',
  from: 'LITE',
  to: 'REGULAR',
  price: '$120.00',
  price_cents: 12000,
  priceId: 'price_lite_regular',
  description: 'Everything in REGULAR',
  upgrade_path: 'lite-to-reg',
  recommendedUpgrade: true,
};
export const LITE_TO_PRO: UpgradeOption = {
  path: 'LITE_TO_PRO',
  from: 'LITE',
  to: 'PRO',
  price: '$320.00',
  price_cents: 32000,
  priceId: 'price_lite_pro',
  description: 'Everything in PRO',
  upgrade_path: 'reg-lite-to-pro',
  recommendedUpgrade: false,
};
export const REGULAR_TO_PRO: UpgradeOption = {
  ...LITE_TO_PRO,
  path: 'REGULAR_TO_PRO',
  from: 'REGULAR',
  price: '$220.00',
  price_cents: 22000,
  priceId: 'price_regular_pro',
};

export const COUNTRIES = {
  countries: [
    { code: 'US', name: 'United States' },
    { code: 'DE', name: 'Germany' },
    { code: 'AT', name: 'Austria' },
    { code: 'GB', name: 'United Kingdom' },
  ],
};

/** The server's VAT calculation for the §9 table (what the real route answers), to check the browser shows it. */
export function vatAnswer(body: {
  amount: number;
  country_code: string;
  is_business: boolean;
  vat_id?: string | null;
}) {
  const rate = body.country_code === 'DE' ? 19 : body.country_code === 'AT' ? 20 : 0;
  const reverse = body.is_business && !!body.vat_id && body.vat_id.startsWith(body.country_code);
  const vat = reverse ? 0 : Math.round((body.amount * rate) / 100);
  return {
    base_amount: body.amount,
    vat_amount: vat,
    total_amount: body.amount + vat,
    vat_rate: reverse ? 0 : rate,
    reverse_charge: reverse,
  };
}

export const ORDER = {
  id: 41,
  kind: 'upgrade' as const,
  status: 'pending' as const,
  from: 'LITE' as const,
  to: 'REGULAR' as const,
  credits: null,
  currency: 'usd' as const,
  base_amount: 12000,
  vat_amount: 2280,
  total_amount: 14280,
  vat_rate: 19,
  reverse_charge: false,
  last_payment_error: null,
};
