import type { BillingInput } from '@keyport/shared/contracts/payments';
import { BILLING_MESSAGES } from '@keyport/shared/domain/billing';
import type { BillingSnapshot } from '../../db/schema';
import type { AuthUser } from '../../http/auth';
import { badRequest } from '../../http/errors';
import type { VerifiedVatId } from '../billing/billing.service';

/** The §7 metadata fields the server reads when there is no billing object (never an amount). */
export interface PaymentMetadata {
  is_business?: boolean | 'true' | 'false' | null;
  company_name?: string | null;
  vat_id?: string | null;
  customer_country?: string | null;
}

/** Who pays: the signed-in user (their name and email bill a §7 request that has no billing object). */
export type Payer = Pick<AuthUser, 'id' | 'email' | 'name'>;

/**
 * §7's own request bills with its metadata (issue 19): the country and business fields from `metadata`, the payer's
 * account name and email; the address is left blank (the form collects it for the invoice when it sends `billing`).
 */
export function billingFromMetadata(payer: Payer, metadata: PaymentMetadata | undefined): BillingInput {
  const country = metadata?.customer_country?.trim().toUpperCase() ?? '';
  if (!/^[A-Z]{2}$/.test(country)) throw badRequest(BILLING_MESSAGES.country, 'invalid_country');
  const company = metadata?.company_name?.trim() ? metadata.company_name.trim() : null;
  const business = metadata?.is_business === true || metadata?.is_business === 'true';
  return {
    name: payer.name,
    email: payer.email,
    address: { line1: '', line2: null, city: '', state: null, postal_code: '', country },
    is_business: business,
    company_name: business ? company : null,
    vat_id: business ? (metadata?.vat_id ?? null) : null,
  };
}

/** The billing details as the order keeps them: trimmed, optional parts null. */
export function billingSnapshot(input: BillingInput): BillingSnapshot {
  const optional = (value: string | null | undefined) => (value && value.trim() !== '' ? value.trim() : null);
  return {
    name: input.name.trim(),
    email: input.email.trim().toLowerCase(),
    address: {
      line1: input.address.line1.trim(),
      line2: optional(input.address.line2),
      city: input.address.city.trim(),
      state: optional(input.address.state),
      postal_code: input.address.postal_code.trim(),
      country: input.address.country.trim().toUpperCase(),
    },
    is_business: input.is_business,
    company_name: input.is_business ? optional(input.company_name) : null,
  };
}

export function vatEvidence(verified: VerifiedVatId | null) {
  return {
    vatId: verified?.vatNumber ?? null,
    vatCountry: verified?.countryCode ?? null,
    vatConsultationNumber: verified?.consultationNumber ?? null,
    vatCheckedAt: verified?.checkedAt ?? null,
  };
}
