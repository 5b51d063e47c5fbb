import { VAT_RATE_MESSAGES } from '@keyport/shared/contracts/vat-rates';

/**
 * What staff type as a rate → basis points, exactly: '25.5' → 2550, '8.1 %' → 810, '0' → 0. At most two decimals,
 * 0 to 100; anything else throws the message the dialog shows.
 */
export function ratePercentToBp(text: string): number {
  const match = /^(\d{1,3})(?:[.,](\d{1,2}))?\s*%?$/.exec(text.trim());
  const bp = match ? Number(match[1]) * 100 + Number((match[2] ?? '').padEnd(2, '0')) : Number.NaN;
  if (!Number.isInteger(bp) || bp > 10_000) throw new Error(VAT_RATE_MESSAGES.rate);
  return bp;
}
