import { createRequire } from 'node:module';
import countries, { type LocaleData } from 'i18n-iso-countries';
import type { Country, VatCalculationResult, VatVerification } from '@keyport/shared/contracts/billing';
import { countryName } from '@keyport/shared/domain/countries';
import { normalizeVatId, vatIdCountry, VAT_MESSAGES, type VatCalculation } from '@keyport/shared/domain/vat';
import type { Db } from '../../db/client';
import { AppError } from '../../http/errors';
import type { RateLimiter } from '../../http/rate-limit';
import type { VatCheck, VatNumberChecker } from '../../integrations/vies/port';
import type { AuditService } from '../audit/audit.service';
import type { AuthService } from '../auth/auth.service';
import * as repo from './billing.repo';
import { createVatRates } from './vat-rates';

const DAY_MS = 24 * 60 * 60 * 1000;

/** A VAT ID VIES confirmed, with what an order keeps as evidence for reverse charge. */
export interface VerifiedVatId {
  vatNumber: string;
  countryCode: string;
  companyName: string | null;
  companyAddress: string | null;
  consultationNumber: string | null;
  checkedAt: Date;
}

export interface BillingServiceDeps {
  db: Db;
  vies: VatNumberChecker;
  /** VIES checks per user (each may be a call to the EU's service). */
  verifyLimit: RateLimiter;
  /** Staff's VAT rate additions are audited (ADR 036). */
  audit: Pick<AuditService, 'record'>;
  users: Pick<AuthService, 'emailsOf'>;
  /** The seller's own country (config SELLER_COUNTRY): its businesses are never reverse charged. */
  sellerCountry: string | null;
  now?: () => Date;
}

// Read with require: the JSON import attribute does not survive the server bundle (esbuild keeps packages external).
countries.registerLocale(createRequire(import.meta.url)('i18n-iso-countries/langs/en.json') as LocaleData);

/** Billing reference data and VAT: the country list, VAT ID checks (VIES, cached a day) and the VAT calculation. */
export function createBillingService(deps: BillingServiceDeps) {
  const { db, vies, verifyLimit, now = () => new Date() } = deps;
  // The names people know and type ('China', 'Gambia', 'North Macedonia': CLDR's, as the browser shows them), not the
  // official forms that file them under other letters ('People's Republic of China', 'Republic of The Gambia').
  const countryList: Country[] = Object.entries(countries.getNames('en', { select: 'official' }))
    .map(([code, official]) => ({ code, name: countryName(code) === code ? official : countryName(code) }))
    .sort((a, b) => a.name.localeCompare(b.name, 'en'));
  const countryCodes = new Set(countryList.map((country) => country.code));
  const isCountry = (code: string) => countryCodes.has(code.toUpperCase());
  const vatRates = createVatRates({
    db,
    audit: deps.audit,
    users: deps.users,
    sellerCountry: deps.sellerCountry,
    isCountry,
    now,
  });

  /** A definite answer from the cache (a day old at most), or VIES; `unavailable` is never cached. */
  async function check(vatNumber: string): Promise<VatCheck> {
    const normalized = normalizeVatId(vatNumber);
    const cached = await repo.findVatCheck(db, normalized);
    if (cached && now().getTime() - cached.checkedAt.getTime() < DAY_MS) return fromCache(cached);
    const answer = await vies.check(normalized);
    if (answer.status === 'valid') {
      await repo.saveVatCheck(db, {
        vatNumber: normalized,
        valid: true,
        countryCode: answer.countryCode,
        companyName: answer.companyName,
        companyAddress: answer.companyAddress,
        consultationNumber: answer.consultationNumber,
        checkedAt: answer.checkedAt,
      });
    } else if (answer.status === 'invalid' && answer.reason === 'not_registered') {
      await repo.saveVatCheck(db, { vatNumber: normalized, valid: false, checkedAt: now() });
    }
    return answer;
  }

  /**
   * The VAT ID reverse charge may rely on: VIES-valid and of the billing country. Null otherwise (VIES down
   * included: the order then pays VAT, never the other way round).
   */
  async function verifiedVatIdFor(
    vatId: string | null | undefined,
    billingCountry: string,
  ): Promise<VerifiedVatId | null> {
    if (!vatId || normalizeVatId(vatId) === '') return null;
    const answer = await check(vatId);
    if (answer.status !== 'valid' || answer.countryCode !== billingCountry.toUpperCase()) return null;
    return {
      vatNumber: answer.vatNumber,
      countryCode: answer.countryCode,
      companyName: answer.companyName,
      companyAddress: answer.companyAddress,
      consultationNumber: answer.consultationNumber,
      checkedAt: answer.checkedAt,
    };
  }

  return {
    countries: () => countryList,
    isCountry,

    /** The dated VAT rate table: the quote's VAT (`vatFor`), the browser's copy, staff's list and additions. */
    vatRates,

    /** §7 POST /stripe/vat/verify. VIES not answering is a 503 with the §8 text. */
    async verify(userId: number, vatNumber: string): Promise<VatVerification> {
      await verifyLimit.hit(`vat-verify:${userId}`);
      const answer = await check(vatNumber);
      if (answer.status === 'unavailable') throw new AppError(503, VAT_MESSAGES.verifyFailed, 'vies_unavailable');
      if (answer.status === 'invalid') {
        return {
          valid: false,
          message: VAT_MESSAGES.invalid,
          error: null,
          vat_number: answer.vatNumber,
          country_code: vatIdCountry(answer.vatNumber),
          company_name: null,
          company_address: null,
        };
      }
      return {
        valid: true,
        message: 'VAT number is valid',
        error: null,
        vat_number: answer.vatNumber,
        country_code: answer.countryCode,
        company_name: answer.companyName,
        company_address: answer.companyAddress,
      };
    },

    verifiedVatIdFor,

    /** §7 POST /stripe/vat/calculate (display only: nothing is charged from it). */
    async calculate(input: {
      amount: number;
      country_code: string;
      is_business: boolean;
      vat_id?: string | null;
    }): Promise<VatCalculationResult> {
      const country = input.country_code.toUpperCase();
      const verified = input.is_business && input.vat_id ? await verifiedVatIdFor(input.vat_id, country) : null;
      return toVatResult(
        await vatRates.vatFor({
          amountCents: input.amount,
          country,
          isBusiness: input.is_business,
          vatId: verified?.vatNumber ?? null,
        }),
      );
    },
  };
}
export type BillingService = ReturnType<typeof createBillingService>;

export function toVatResult(result: VatCalculation): VatCalculationResult {
  return {
    base_amount: result.baseCents,
    vat_amount: result.vatCents,
    total_amount: result.totalCents,
    vat_rate: result.rateBp / 100,
    reverse_charge: result.reverseCharge,
  };
}

function fromCache(row: repo.VatCheckRow): VatCheck {
  if (!row.valid) return { status: 'invalid', vatNumber: row.vatNumber, reason: 'not_registered' };
  return {
    status: 'valid',
    vatNumber: row.vatNumber,
    countryCode: row.countryCode ?? vatIdCountry(row.vatNumber) ?? '',
    companyName: row.companyName,
    companyAddress: row.companyAddress,
    consultationNumber: row.consultationNumber,
    checkedAt: row.checkedAt,
  };
}
