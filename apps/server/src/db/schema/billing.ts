/** modules/billing: VIES answers and the dated VAT rates. */
import { sql } from 'drizzle-orm';
import { boolean, check, date, index, integer, pgTable, serial, text, timestamp } from 'drizzle-orm/pg-core';
import { users } from './auth';
import { createdAt } from './columns';

/** VIES answers, cached for a day (modules/billing). Only definite answers (valid, invalid) are kept. */
export const vatChecks = pgTable('vat_checks', {
  vatNumber: text('vat_number').primaryKey(),
  valid: boolean('valid').notNull(),
  countryCode: text('country_code'),
  companyName: text('company_name'),
  companyAddress: text('company_address'),
  consultationNumber: text('consultation_number'),
  checkedAt: timestamp('checked_at', { withTimezone: true }).notNull(),
});

/**
 * VAT rates staff added (modules/billing, issue 19, ADR 036): from `valid_from` (inclusive) the country's standard rate
 * is `rate_bp`. They extend the rate table the code carries (the §9 baseline and the cited changes); between rows with
 * the same start the one added last wins. Rows are never changed: a correction is a new row. Each is audited.
 */
export const vatRates = pgTable(
  'vat_rates',
  {
    id: serial('id').primaryKey(),
    country: text('country').notNull(),
    rateBp: integer('rate_bp').notNull(),
    validFrom: date('valid_from', { mode: 'string' }).notNull(),
    createdAt: createdAt(),
    createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
    reason: text('reason').notNull(),
  },
  (t) => [
    check('vat_rates_country', sql`${t.country} ~ '^[A-Z]{2}$'`),
    check('vat_rates_rate', sql`${t.rateBp} between 0 and 10000`),
    index('vat_rates_country_idx').on(t.country, t.validFrom),
  ],
);
