/**
 * §5 "Billing form" and "Country list": what a billing form needs before the pay button is enabled, with the same
 * messages the server's contract (contracts/payments.ts BillingSchema) gives for the same input. ADR 012.
 */
import { z } from 'zod/mini';
import type { Country } from '../contracts/billing';
import type { BillingInput } from '../contracts/payments';
import { normalizeVatId, VAT_MESSAGES } from './vat';

/** §3 "Billing details" as the form holds them (every text as typed). */
export interface BillingForm {
  name: string;
  email: string;
  line1: string;
  line2: string;
  city: string;
  state: string;
  postal_code: string;
  /** ISO 3166-1 alpha-2. */
  country: string;
  is_business: boolean;
  company_name: string;
  vat_id: string;
}
export type BillingField = Exclude<keyof BillingForm, 'is_business'>;
export type BillingErrors = Partial<Record<BillingField, string>>;

/** §3/§9: default billing country US. */
export const DEFAULT_BILLING_COUNTRY = 'US';

export const EMPTY_BILLING_FORM: Readonly<BillingForm> = Object.freeze({
  name: '',
  email: '',
  line1: '',
  line2: '',
  city: '',
  state: '',
  postal_code: '',
  country: DEFAULT_BILLING_COUNTRY,
  is_business: false,
  company_name: '',
  vat_id: '',
});

/**
 * The spec names the required fields but gives no text for them, except the PayPal line; these are the contract's
 * messages (ADR 012).
 */
export const BILLING_MESSAGES = {
  name: 'Enter your name',
  email: 'Enter a valid email address',
  emailTooLong: 'Email is too long',
  line1: 'Enter your address',
  city: 'Enter your city',
  postalCode: 'Enter your postal code',
  country: 'Choose your country',
  companyName: 'Enter your company name',
  vatId: VAT_MESSAGES.invalid,
  tooLong: (max: number) => `At most ${max} characters`,
  /** §5: shown instead of the wallet buttons until every billing field is filled. */
  paypalNeedsBilling: 'Please fill in all billing information above to use PayPal',
} as const;

/** The contract's limits (characters, after trimming). */
export const BILLING_MAX_LENGTH = {
  name: 200,
  email: 254,
  line1: 200,
  line2: 200,
  city: 100,
  state: 100,
  postal_code: 20,
  company_name: 200,
  vat_id: 20,
} as const;

const emailSchema = z.email();

function checkText(value: string, max: number, required?: string): string | undefined {
  const text = value.trim();
  if (required !== undefined && text === '') return required;
  if (text.length > max) return BILLING_MESSAGES.tooLong(max);
  return undefined;
}

/**
 * §5: name, email, address line, city, postal code and country are required; the company name too when the business
 * box is ticked; the VAT ID is optional (its check is the VIES verification). Returns a message per invalid field.
 */
export function validateBilling(form: BillingForm): BillingErrors {
  const errors: BillingErrors = {};
  const set = (field: BillingField, message: string | undefined) => {
    if (message !== undefined) errors[field] = message;
  };
  set('name', checkText(form.name, BILLING_MAX_LENGTH.name, BILLING_MESSAGES.name));
  const email = form.email.trim().toLowerCase();
  if (!emailSchema.safeParse(email).success) set('email', BILLING_MESSAGES.email);
  else if (email.length > BILLING_MAX_LENGTH.email) set('email', BILLING_MESSAGES.emailTooLong);
  set('line1', checkText(form.line1, BILLING_MAX_LENGTH.line1, BILLING_MESSAGES.line1));
  set('line2', checkText(form.line2, BILLING_MAX_LENGTH.line2));
  set('city', checkText(form.city, BILLING_MAX_LENGTH.city, BILLING_MESSAGES.city));
  set('state', checkText(form.state, BILLING_MAX_LENGTH.state));
  set('postal_code', checkText(form.postal_code, BILLING_MAX_LENGTH.postal_code, BILLING_MESSAGES.postalCode));
  if (!/^[A-Za-z]{2}$/.test(form.country.trim())) set('country', BILLING_MESSAGES.country);
  if (form.is_business) {
    set('company_name', checkText(form.company_name, BILLING_MAX_LENGTH.company_name, BILLING_MESSAGES.companyName));
    if (normalizeVatId(form.vat_id).length > BILLING_MAX_LENGTH.vat_id) set('vat_id', BILLING_MESSAGES.vatId);
  }
  return errors;
}

/** §5: every billing field is filled (the wallet buttons show; with a complete card, the pay button enables). */
export function billingComplete(form: BillingForm): boolean {
  return Object.keys(validateBilling(form)).length === 0;
}

/** §5: the pay button is disabled until the billing form is complete and the card is complete. */
export function readyToPay(form: BillingForm, cardComplete: boolean): boolean {
  return cardComplete && billingComplete(form);
}

const blankToNull = (value: string): string | null => (value.trim() === '' ? null : value.trim());

/**
 * The form as `POST /stripe/payment-intents` sends it: trimmed, optional blanks as null, country upper case, the VAT
 * ID normalised; company name and VAT ID only for a business.
 */
export function toBillingInput(form: BillingForm): BillingInput {
  const vatId = normalizeVatId(form.vat_id);
  return {
    name: form.name.trim(),
    email: form.email.trim().toLowerCase(),
    address: {
      line1: form.line1.trim(),
      line2: blankToNull(form.line2),
      city: form.city.trim(),
      state: blankToNull(form.state),
      postal_code: form.postal_code.trim(),
      country: form.country.trim().toUpperCase(),
    },
    is_business: form.is_business,
    company_name: form.is_business ? blankToNull(form.company_name) : null,
    vat_id: form.is_business && vatId !== '' ? vatId : null,
  };
}

/**
 * §5 "Country list": the built-in 23 countries used when the country list cannot be loaded, sorted by name (English
 * names as CLDR writes them).
 */
export const DEFAULT_COUNTRIES: readonly Country[] = Object.freeze([
  { code: 'AU', name: 'Australia' },
  { code: 'AT', name: 'Austria' },
  { code: 'BE', name: 'Belgium' },
  { code: 'CA', name: 'Canada' },
  { code: 'DK', name: 'Denmark' },
  { code: 'FI', name: 'Finland' },
  { code: 'FR', name: 'France' },
  { code: 'DE', name: 'Germany' },
  { code: 'IN', name: 'India' },
  { code: 'IE', name: 'Ireland' },
  { code: 'IT', name: 'Italy' },
  { code: 'JP', name: 'Japan' },
  { code: 'NL', name: 'Netherlands' },
  { code: 'NZ', name: 'New Zealand' },
  { code: 'NO', name: 'Norway' },
  { code: 'PL', name: 'Poland' },
  { code: 'PT', name: 'Portugal' },
  { code: 'SG', name: 'Singapore' },
  { code: 'ES', name: 'Spain' },
  { code: 'SE', name: 'Sweden' },
  { code: 'CH', name: 'Switzerland' },
  { code: 'GB', name: 'United Kingdom' },
  { code: 'US', name: 'United States' },
]);

/** §5: shown when the country list could not be loaded and DEFAULT_COUNTRIES is offered instead. */
export const COUNTRIES_FALLBACK_MESSAGE = 'Failed to load countries. Using default options.';
