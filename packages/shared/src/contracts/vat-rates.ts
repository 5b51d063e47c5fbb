import { z } from 'zod/mini';
import { defineContract } from './define';
import { StaffReasonSchema } from './staff';

/**
 * VAT rates with start dates (issue 19, ADR 036): the §9 table is the baseline, later changes apply from the day they
 * took effect, and staff add new ones in the console (audited). The web's local VAT estimate uses the same table.
 */

/** One row of the rate table: from `valid_from` (inclusive; null = the §9 baseline) the country's standard rate. */
export const VatRateSchema = z.object({
  country: z.string(),
  /** Basis points: 2550 is 25.5%. */
  rate_bp: z.int(),
  valid_from: z.nullable(z.string()),
});
export type VatRate = z.infer<typeof VatRateSchema>;

/** The rate table as the browser's estimate uses it, and the seller's own country (never reverse charged). */
export const getVatRates = defineContract({
  operationId: 'getVatRates',
  method: 'GET',
  path: '/vat-rates',
  summary: 'The dated VAT rate table and the seller country (the browser estimates VAT with them)',
  tags: ['billing'],
  access: 'public',
  response: z.object({
    seller_country: z.nullable(z.string()),
    /** Rows in the order they apply: between equal starts the later row wins. */
    rates: z.array(VatRateSchema),
  }),
});

/** A row as staff see it: where it comes from (the code's table, or who added it, when and why). */
export const StaffVatRateSchema = z.extend(VatRateSchema, {
  /** null for the built-in rows (the §9 table and the cited changes). */
  id: z.nullable(z.int()),
  source: z.enum(['spec', 'built_in', 'staff']),
  /** Whether it is the country's rate today. */
  in_force: z.boolean(),
  created_at: z.nullable(z.string()),
  created_by_email: z.nullable(z.string()),
  reason: z.nullable(z.string()),
});
export type StaffVatRate = z.infer<typeof StaffVatRateSchema>;

export const staffListVatRates = defineContract({
  operationId: 'staffListVatRates',
  method: 'GET',
  path: '/staff/vat-rates',
  summary: 'Every VAT rate row, built-in and added by staff, with the rate in force today (staff only)',
  tags: ['staff'],
  access: 'staff',
  response: z.object({ today: z.string(), rates: z.array(StaffVatRateSchema) }),
});

export const VAT_RATE_MESSAGES = {
  country: 'Choose a country (two-letter ISO code)',
  rate: 'Enter a rate between 0 and 100 with at most two decimals',
  date: 'Enter the start date as YYYY-MM-DD',
  dateRange: 'The start date must be between 2000-01-01 and 2099-12-31',
} as const;

export const staffAddVatRate = defineContract({
  operationId: 'staffAddVatRate',
  method: 'POST',
  path: '/staff/vat-rates',
  summary: "Add a country's standard VAT rate from a start date (staff only; audited, reason required)",
  tags: ['staff'],
  access: 'staff',
  status: 201,
  body: z.object({
    country: z.string().check(z.trim(), z.regex(/^[A-Za-z]{2}$/, VAT_RATE_MESSAGES.country)),
    rate_bp: z
      .int(VAT_RATE_MESSAGES.rate)
      .check(z.minimum(0, VAT_RATE_MESSAGES.rate), z.maximum(10_000, VAT_RATE_MESSAGES.rate)),
    valid_from: z.string().check(z.regex(/^\d{4}-\d{2}-\d{2}$/, VAT_RATE_MESSAGES.date)),
    reason: StaffReasonSchema,
  }),
  response: z.object({ rate: StaffVatRateSchema }),
});
