import type { StaffVatRate, VatRate } from '@keyport/shared/contracts/vat-rates';
import { VAT_RATE_MESSAGES } from '@keyport/shared/contracts/vat-rates';
import {
  calculateVat,
  DEFAULT_VAT_RATE_TABLE,
  isIsoDate,
  utcDate,
  vatRateEntryOn,
  type VatCalculation,
  type VatRateEntry,
  type VatRateTable,
} from '@keyport/shared/domain/vat';
import type { Db } from '../../db/client';
import { badRequest } from '../../http/errors';
import type { AuditService } from '../audit/audit.service';
import type { AuthService } from '../auth/auth.service';
import * as repo from './vat-rates.repo';

export interface VatRatesDeps {
  db: Db;
  audit: Pick<AuditService, 'record'>;
  users: Pick<AuthService, 'emailsOf'>;
  /** The seller's own country (config SELLER_COUNTRY): its businesses are never reverse charged. */
  sellerCountry: string | null;
  /** Whether a code is a country the billing form offers. */
  isCountry: (code: string) => boolean;
  now: () => Date;
}

/** What a VAT calculation needs besides the amount: who buys where, and whether VIES confirmed their VAT ID. */
export interface VatQuoteInput {
  amountCents: number;
  country: string;
  isBusiness: boolean;
  /** Only a VAT ID VIES confirmed for the billing country; null otherwise. */
  vatId: string | null;
}

/** A row of the table with where it comes from (staff rows carry their database row). */
type SourcedEntry = VatRateEntry & { row: repo.VatRateRow | null };

/**
 * The dated VAT rate table (ADR 036): the code's rows (the §9 baseline, the cited changes) followed by the rows staff
 * added, in the order they were added. Read from the database on every calculation (a handful of rows), so a rate
 * staff add applies to the next quote in every process.
 */
export function createVatRates(deps: VatRatesDeps) {
  const { db, audit, users, sellerCountry, isCountry, now } = deps;

  async function sourcedTable(country?: string): Promise<SourcedEntry[]> {
    const rows = await repo.listRates(db, country);
    return [
      ...DEFAULT_VAT_RATE_TABLE.filter((entry) => country === undefined || entry.country === country).map((entry) => ({
        ...entry,
        row: null,
      })),
      ...rows.map((row) => ({ country: row.country, rateBp: row.rateBp, from: row.validFrom, row })),
    ];
  }

  const table = async (country?: string): Promise<VatRateTable> => sourcedTable(country);

  function toStaff(entry: SourcedEntry, inForce: boolean, emails: Map<number, string>): StaffVatRate {
    const { row } = entry;
    return {
      id: row?.id ?? null,
      country: entry.country,
      rate_bp: entry.rateBp,
      valid_from: entry.from,
      source: row ? 'staff' : entry.from === null ? 'spec' : 'built_in',
      in_force: inForce,
      created_at: row ? row.createdAt.toISOString() : null,
      created_by_email: row?.createdBy ? (emails.get(row.createdBy) ?? null) : null,
      reason: row?.reason ?? null,
    };
  }

  return {
    sellerCountry,

    /**
     * The VAT of a quote made now: the rate in force today (UTC) in the billing country, reverse charge for an EU
     * business with a confirmed VAT ID of that country unless it is the seller's own.
     */
    async vatFor(input: VatQuoteInput): Promise<VatCalculation> {
      const country = input.country.trim().toUpperCase();
      return calculateVat({
        amountCents: input.amountCents,
        country,
        isBusiness: input.isBusiness,
        vatId: input.vatId,
        date: utcDate(now()),
        rates: await table(country),
        sellerCountry,
      });
    },

    /** GET /vat-rates: the whole table for the browser's estimate. */
    async publicTable(): Promise<{ seller_country: string | null; rates: VatRate[] }> {
      const rows = await table();
      return {
        seller_country: sellerCountry,
        rates: rows.map((entry) => ({ country: entry.country, rate_bp: entry.rateBp, valid_from: entry.from })),
      };
    },

    /** GET /staff/vat-rates: every row with its source, and which one is in force today per country. */
    async staffList(): Promise<{ today: string; rates: StaffVatRate[] }> {
      const today = utcDate(now());
      const rows = await sourcedTable();
      const inForce = new Set(
        [...new Set(rows.map((entry) => entry.country))].map((country) => vatRateEntryOn(rows, country, today)),
      );
      const staffIds = rows.flatMap((entry) => (entry.row?.createdBy ? [entry.row.createdBy] : []));
      const emails = staffIds.length > 0 ? await users.emailsOf(staffIds) : new Map<number, string>();
      return { today, rates: rows.map((entry) => toStaff(entry, inForce.has(entry), emails)) };
    },

    /** POST /staff/vat-rates: one row and its audit entry, in one transaction. */
    async add(
      staffId: number,
      input: { country: string; rate_bp: number; valid_from: string; reason: string },
    ): Promise<StaffVatRate> {
      const country = input.country.trim().toUpperCase();
      if (!isCountry(country)) throw badRequest(VAT_RATE_MESSAGES.country, 'invalid_country');
      if (!isIsoDate(input.valid_from)) throw badRequest(VAT_RATE_MESSAGES.date, 'invalid_date');
      if (input.valid_from < '2000-01-01' || input.valid_from > '2099-12-31') {
        throw badRequest(VAT_RATE_MESSAGES.dateRange, 'invalid_date');
      }
      const row = await db.transaction(async (tx) => {
        const inserted = await repo.insertRate(tx, {
          country,
          rateBp: input.rate_bp,
          validFrom: input.valid_from,
          createdBy: staffId,
          reason: input.reason,
        });
        await audit.record(tx, {
          actor: { type: 'staff', id: staffId },
          action: 'vat_rate.added',
          object: { type: 'vat_rate', id: inserted.id },
          reason: input.reason,
          data: { country, rateBp: input.rate_bp, validFrom: input.valid_from },
        });
        return inserted;
      });
      const rows = await sourcedTable(country);
      const current = vatRateEntryOn(rows, country, utcDate(now()));
      const emails = await users.emailsOf([staffId]);
      const entry = rows.find((candidate) => candidate.row?.id === row.id)!;
      return toStaff(entry, current === entry, emails);
    },
  };
}
export type VatRates = ReturnType<typeof createVatRates>;
