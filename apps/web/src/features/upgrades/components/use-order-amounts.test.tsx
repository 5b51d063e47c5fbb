import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { renderHook, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { describe, expect, it } from 'vitest';
import { DEFAULT_VAT_RATE_TABLE, utcDate } from '@keyport/shared/domain/vat';
import { deferred, fakeApi, json } from '../../../test/fake-api';
import { useOrderAmounts } from './use-order-amounts';

function wrapper({ children }: { children: ReactNode }) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return <QueryClientProvider client={client}>{children}</QueryClientProvider>;
}

const table = (extra: object[], sellerCountry: string | null) => ({
  seller_country: sellerCountry,
  rates: [
    ...DEFAULT_VAT_RATE_TABLE.map((rate) => ({ country: rate.country, rate_bp: rate.rateBp, valid_from: rate.from })),
    ...extra,
  ],
});

describe('the order summary’s own VAT estimate (before the server’s answer)', () => {
  it('uses the rates in force today: Finland 25.5%, not the spec table’s 24%', () => {
    fakeApi({ 'GET /vat-rates': () => deferred().promise, 'POST /stripe/vat/calculate': () => deferred().promise });
    const { result } = renderHook(
      () => useOrderAmounts({ amountCents: 10_000, country: 'FI', isBusiness: false, verifiedVatId: null }),
      { wrapper },
    );
    expect(result.current).toMatchObject({ rateBp: 2550, vatCents: 2550, fromServer: false });
  });

  it('follows the server’s table: a rate staff added today, and the seller’s own country never reverse charged', async () => {
    fakeApi({
      'GET /vat-rates': () =>
        json(200, table([{ country: 'DE', rate_bp: 2100, valid_from: utcDate(new Date()) }], 'DE')),
      'POST /stripe/vat/calculate': () => deferred().promise,
    });
    const { result } = renderHook(
      () => useOrderAmounts({ amountCents: 10_000, country: 'DE', isBusiness: true, verifiedVatId: 'DE123456789' }),
      { wrapper },
    );
    // The built-in table first: a German business with a German VAT ID is reverse charged.
    expect(result.current).toMatchObject({ reverseCharge: true, vatCents: 0 });
    await waitFor(() => expect(result.current).toMatchObject({ reverseCharge: false, rateBp: 2100, vatCents: 2100 }));
  });

  it('the server’s calculation overrides the estimate when it answers', async () => {
    fakeApi({
      'GET /vat-rates': () => json(200, table([], null)),
      'POST /stripe/vat/calculate': () =>
        json(200, { base_amount: 10_000, vat_amount: 2000, total_amount: 12_000, vat_rate: 20, reverse_charge: false }),
    });
    const { result } = renderHook(
      () => useOrderAmounts({ amountCents: 10_000, country: 'DE', isBusiness: false, verifiedVatId: null }),
      { wrapper },
    );
    await waitFor(() => expect(result.current).toMatchObject({ rateBp: 2000, fromServer: true }));
  });
});
