import { useMemo } from 'react';
import {
  calculateVat,
  DEFAULT_VAT_RATE_TABLE,
  utcDate,
  vatRateBpFromPercent,
  type VatRateTable,
} from '@keyport/shared/domain/vat';
import { useVatQuote } from '../api/calculate-vat';
import { useVatRates } from '../api/get-vat-rates';

/** What the order summary shows, in cents; the rate in basis points. */
export interface OrderAmounts {
  baseCents: number;
  vatCents: number;
  totalCents: number;
  rateBp: number;
  reverseCharge: boolean;
  /** True once the server's calculation (POST /stripe/vat/calculate) answered for these inputs. */
  fromServer: boolean;
}

export interface OrderAmountsInput {
  amountCents: number;
  country: string;
  isBusiness: boolean;
  /** Only a VAT ID that VIES confirmed (reverse charge needs one); null otherwise. */
  verifiedVatId: string | null;
}

/**
 * §9: the browser computes VAT at once with the shared rule — today's rate from the server's dated table (the built-in
 * one until it arrives) and the seller's country (never reverse charged) — and the server's answer overrides it when
 * it arrives (and only for the inputs it was asked about). ADR 036.
 */
export function useOrderAmounts(input: OrderAmountsInput | null): OrderAmounts | null {
  const table = useVatRates();
  const rates = useMemo<VatRateTable>(
    () =>
      table.data
        ? table.data.rates.map((rate) => ({ country: rate.country, rateBp: rate.rate_bp, from: rate.valid_from }))
        : DEFAULT_VAT_RATE_TABLE,
    [table.data],
  );
  const quote = useVatQuote(
    input && {
      amount: input.amountCents,
      country_code: input.country,
      is_business: input.isBusiness,
      vat_id: input.verifiedVatId,
    },
  );
  if (!input) return null;
  const serverRateBp = quote.data ? vatRateBpFromPercent(quote.data.vat_rate) : null;
  if (quote.data && serverRateBp !== null) {
    return {
      baseCents: quote.data.base_amount,
      vatCents: quote.data.vat_amount,
      totalCents: quote.data.total_amount,
      rateBp: serverRateBp,
      reverseCharge: quote.data.reverse_charge,
      fromServer: true,
    };
  }
  const local = calculateVat({
    amountCents: input.amountCents,
    country: input.country,
    isBusiness: input.isBusiness,
    vatId: input.verifiedVatId,
    date: utcDate(new Date()),
    rates,
    sellerCountry: table.data?.seller_country ?? null,
  });
  return {
    baseCents: local.baseCents,
    vatCents: local.vatCents,
    totalCents: local.totalCents,
    rateBp: local.rateBp,
    reverseCharge: local.reverseCharge,
    fromServer: false,
  };
}
