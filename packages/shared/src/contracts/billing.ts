import { z } from 'zod/mini';
import { defineContract } from './define';

/** §5 "Country list": code (ISO 3166-1 alpha-2) and English name. */
export const CountrySchema = z.object({ code: z.string(), name: z.string() });
export type Country = z.infer<typeof CountrySchema>;

export const getCountries = defineContract({
  operationId: 'getCountries',
  method: 'GET',
  path: '/countries',
  summary: 'Every country a billing address may be in, sorted by name',
  tags: ['billing'],
  access: 'public',
  response: z.object({ countries: z.array(CountrySchema) }),
});

/** The VAT number field: §5 'Please enter a VAT number' when blank. */
const vatNumber = z
  .string()
  .check(z.trim(), z.minLength(1, 'Please enter a VAT number'), z.maxLength(20, 'VAT number is not valid'));

/** §3 "VAT check result", as the server answers it. Unavailable VIES is a 503 with 'Failed to verify VAT number…'. */
export const VatVerificationSchema = z.object({
  valid: z.boolean(),
  message: z.string(),
  error: z.nullable(z.string()),
  /** The normalised number ('DE123456789'), when it was readable. */
  vat_number: z.nullable(z.string()),
  country_code: z.nullable(z.string()),
  company_name: z.nullable(z.string()),
  company_address: z.nullable(z.string()),
});
export type VatVerification = z.infer<typeof VatVerificationSchema>;

export const verifyVatNumber = defineContract({
  operationId: 'verifyVatNumber',
  method: 'POST',
  path: '/stripe/vat/verify',
  summary: 'Check an EU VAT number with VIES (cached for a day)',
  tags: ['billing'],
  access: 'user',
  body: z.object({ vat_number: vatNumber }),
  response: VatVerificationSchema,
});

const countryCode = z.string().check(z.regex(/^[A-Za-z]{2}$/, 'country_code must be a two-letter country code'));

/** §3 "VAT calculation", in cents; `vat_rate` in percent (19, 7.7). */
export const VatCalculationSchema = z.object({
  base_amount: z.int(),
  vat_amount: z.int(),
  total_amount: z.int(),
  vat_rate: z.number(),
  reverse_charge: z.boolean(),
});
export type VatCalculationResult = z.infer<typeof VatCalculationSchema>;

/**
 * §7 POST /stripe/vat/calculate: a calculator for the order summary (nothing is charged from it: the payment intent
 * computes its amounts again from the catalogue). Reverse charge needs a VAT ID that VIES confirmed, of the billing
 * country.
 */
export const calculateVat = defineContract({
  operationId: 'calculateVat',
  method: 'POST',
  path: '/stripe/vat/calculate',
  summary: 'VAT for an amount, a billing country and (for a business) a VAT ID',
  tags: ['billing'],
  access: 'user',
  body: z.object({
    amount: z.int().check(z.minimum(0, 'amount must be at least 0'), z.maximum(10_000_000, 'amount is too large')),
    country_code: countryCode,
    is_business: z.boolean(),
    vat_id: z.optional(z.nullable(z.string().check(z.trim(), z.maxLength(20, 'VAT number is not valid')))),
  }),
  response: VatCalculationSchema,
});
