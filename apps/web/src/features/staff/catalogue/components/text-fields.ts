import { parseUsdToCents } from '@keyport/shared/domain/money';
import { z } from 'zod/mini';

// What the catalogue's forms type (text) read into the contract's own field schemas (ADR 043): each helper turns the
// text into the contract's type, then the contract's schema checks it, so the browser applies the server's rules and
// the form's output is the request body as the contract types it.

export const PRICE_FORMAT = 'Enter a price such as 120.00';
export const WHOLE_NUMBER = 'Enter a whole number';

type Field<T> = z.core.$ZodType<T, T>;

/** A price in dollars ('120', '$1,234.50') → cents. */
export function usdText<S extends Field<number>>(cents: S) {
  return z.pipe(
    z.pipe(
      z.string(),
      z.transform((text: string, context) => {
        const value = parseUsdToCents(text);
        if (value !== null) return value;
        context.issues.push({ code: 'custom', message: PRICE_FORMAT, input: text });
        return z.NEVER;
      }),
    ),
    cents,
  );
}

/** A count ('30') → the number. */
export function wholeNumberText<S extends Field<number>>(count: S) {
  return z.pipe(
    z.pipe(
      z.string(),
      z.transform((text: string, context) => {
        if (/^\s*\d+\s*$/.test(text)) return Number(text);
        context.issues.push({ code: 'custom', message: WHOLE_NUMBER, input: text });
        return z.NEVER;
      }),
    ),
    count,
  );
}

/** A text that may stay empty → null when it does. */
export function optionalText<S extends Field<string | null>>(text: S) {
  return z.pipe(
    z.pipe(
      z.string(),
      z.transform((value: string) => (value.trim() === '' ? null : value)),
    ),
    text,
  );
}
