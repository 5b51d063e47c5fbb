import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CountrySchema } from '../contracts/billing';
import { BillingSchema } from '../contracts/payments';
import {
  BILLING_MESSAGES,
  billingComplete,
  COUNTRIES_FALLBACK_MESSAGE,
  DEFAULT_BILLING_COUNTRY,
  DEFAULT_COUNTRIES,
  EMPTY_BILLING_FORM,
  readyToPay,
  toBillingInput,
  validateBilling,
  type BillingField,
  type BillingForm,
} from './billing';

const FILLED: BillingForm = {
  name: 'Erika Mustermann',
  email: 'erika@example.com',
  line1: 'Hauptstraße 1',
  line2: '',
  city: 'Berlin',
  state: '',
  postal_code: '10115',
  country: 'DE',
  is_business: false,
  company_name: '',
  vat_id: '',
};
const form = (patch: Partial<BillingForm>): BillingForm => ({ ...FILLED, ...patch });

describe('§5 billing form', () => {
  it('starts empty with country US', () => {
    expect(DEFAULT_BILLING_COUNTRY).toBe('US');
    expect(EMPTY_BILLING_FORM.country).toBe('US');
    expect(validateBilling(EMPTY_BILLING_FORM)).toEqual({
      name: 'Enter your name',
      email: 'Enter a valid email address',
      line1: 'Enter your address',
      city: 'Enter your city',
      postal_code: 'Enter your postal code',
    });
    expect(billingComplete(EMPTY_BILLING_FORM)).toBe(false);
  });

  it('a filled form is complete; line 2 and state are optional', () => {
    expect(validateBilling(FILLED)).toEqual({});
    expect(billingComplete(FILLED)).toBe(true);
  });

  it.each<[string, Partial<BillingForm>, BillingField, string]>([
    ['name blank', { name: '   ' }, 'name', 'Enter your name'],
    ['email blank', { email: '' }, 'email', 'Enter a valid email address'],
    ['email without @', { email: 'erika.example.com' }, 'email', 'Enter a valid email address'],
    ['email without domain dot', { email: 'erika@example' }, 'email', 'Enter a valid email address'],
    ['email too long', { email: `${'a'.repeat(64)}@${'b'.repeat(186)}.com` }, 'email', 'Email is too long'],
    ['address blank', { line1: '' }, 'line1', 'Enter your address'],
    ['city blank', { city: '\t' }, 'city', 'Enter your city'],
    ['postal code blank', { postal_code: '' }, 'postal_code', 'Enter your postal code'],
    ['country blank', { country: '' }, 'country', 'Choose your country'],
    ['country a name', { country: 'Germany' }, 'country', 'Choose your country'],
    ['country digits', { country: '49' }, 'country', 'Choose your country'],
    ['name too long', { name: 'x'.repeat(201) }, 'name', 'At most 200 characters'],
    ['line 2 too long', { line2: 'x'.repeat(201) }, 'line2', 'At most 200 characters'],
    ['state too long', { state: 'x'.repeat(101) }, 'state', 'At most 100 characters'],
    ['postal code too long', { postal_code: '1'.repeat(21) }, 'postal_code', 'At most 20 characters'],
    ['business without company', { is_business: true }, 'company_name', 'Enter your company name'],
    [
      'business with blank company',
      { is_business: true, company_name: '  ', vat_id: 'DE123456789' },
      'company_name',
      'Enter your company name',
    ],
    [
      'business VAT ID too long',
      { is_business: true, company_name: 'Muster GmbH', vat_id: 'DE'.padEnd(21, '1') },
      'vat_id',
      'VAT number is not valid',
    ],
  ])('%s', (_case, patch, field, message) => {
    const f = form(patch);
    expect(validateBilling(f)).toEqual({ [field]: message });
    expect(billingComplete(f)).toBe(false);
  });

  it.each<Partial<BillingForm>>([
    { is_business: true, company_name: 'Muster GmbH' },
    { is_business: true, company_name: 'Muster GmbH', vat_id: 'DE 123 456 789' },
    { is_business: true, company_name: 'Muster GmbH', vat_id: 'CHE-123.456.789 MWST' },
    { is_business: false, company_name: '', vat_id: 'x'.repeat(40) },
    { country: 'de' },
    { country: ' us ' },
    { name: 'x'.repeat(200), postal_code: '1'.repeat(20), state: 'Bayern', line2: 'Hinterhaus' },
    { email: '  Erika@Example.COM ' },
  ])('complete: %j', (patch) => {
    expect(validateBilling(form(patch))).toEqual({});
    expect(billingComplete(form(patch))).toBe(true);
  });

  it('the pay button needs a complete form and a complete card', () => {
    expect(readyToPay(FILLED, true)).toBe(true);
    expect(readyToPay(FILLED, false)).toBe(false);
    expect(readyToPay(form({ city: '' }), true)).toBe(false);
    expect(readyToPay(EMPTY_BILLING_FORM, false)).toBe(false);
  });

  it('§5 wallet line is the spec’s text', () => {
    expect(BILLING_MESSAGES.paypalNeedsBilling).toBe('Please fill in all billing information above to use PayPal');
  });
});

describe('toBillingInput', () => {
  it('trims, nulls optional blanks, upper-cases the country, normalises the VAT ID', () => {
    expect(
      toBillingInput(
        form({
          name: ' Erika ',
          email: ' Erika@Example.COM',
          line2: '  ',
          state: ' BE ',
          country: 'de',
          is_business: true,
          company_name: ' Muster GmbH ',
          vat_id: 'de 123.456-789',
        }),
      ),
    ).toEqual({
      name: 'Erika',
      email: 'erika@example.com',
      address: {
        line1: 'Hauptstraße 1',
        line2: null,
        city: 'Berlin',
        state: 'BE',
        postal_code: '10115',
        country: 'DE',
      },
      is_business: true,
      company_name: 'Muster GmbH',
      vat_id: 'DE123456789',
    });
  });

  it('drops company and VAT ID for a consumer', () => {
    const input = toBillingInput(form({ is_business: false, company_name: 'Muster GmbH', vat_id: 'DE123456789' }));
    expect(input.company_name).toBeNull();
    expect(input.vat_id).toBeNull();
  });

  it('a complete form passes the server’s contract unchanged', () => {
    const input = toBillingInput(form({ is_business: true, company_name: 'Muster GmbH', vat_id: 'DE123456789' }));
    expect(BillingSchema.parse(input)).toEqual(input);
  });
});

describe('the form and the server contract agree', () => {
  /** The contract's message per form field, for the form sent as typed. */
  function contractErrors(f: BillingForm): Partial<Record<BillingField, string>> {
    const result = BillingSchema.safeParse({
      name: f.name,
      email: f.email,
      address: {
        line1: f.line1,
        line2: f.line2,
        city: f.city,
        state: f.state,
        postal_code: f.postal_code,
        country: f.country,
      },
      is_business: f.is_business,
    });
    const errors: Partial<Record<BillingField, string>> = {};
    for (const issue of result.success ? [] : result.error.issues) {
      const field = String(issue.path[issue.path.length - 1]) as BillingField;
      errors[field] ??= issue.message;
    }
    return errors;
  }
  const text = fc.oneof(
    fc.constantFrom('', ' ', '\t', 'a', ' Berlin ', 'x'.repeat(100), 'x'.repeat(101), 'x'.repeat(200)),
    fc.string({ maxLength: 30 }),
    fc.string({ minLength: 195, maxLength: 205 }),
  );
  const email = fc.oneof(
    fc.emailAddress(),
    fc.constantFrom('', 'a@b', 'a@b.co', ' A@B.CO ', 'a..b@c.de', '@c.de', 'a@-c.de'),
    fc.string({ maxLength: 20 }),
  );
  const country = fc.oneof(fc.constantFrom('', 'US', 'de', ' gb ', 'USA', '1A', 'Ü1'), fc.string({ maxLength: 3 }));

  it('on every field they both check (all but company name and VAT ID)', () => {
    fc.assert(
      fc.property(
        fc.record({
          name: text,
          email,
          line1: text,
          line2: text,
          city: text,
          state: text,
          postal_code: fc.oneof(text, fc.constantFrom('12345', '1'.repeat(21))),
          country,
        }),
        (fields) => {
          const f = { ...FILLED, ...fields };
          expect(validateBilling(f)).toEqual(contractErrors(f));
        },
      ),
      { numRuns: 500 },
    );
  });
});

describe('§5 country list fallback', () => {
  it('has 23 countries, sorted by name, including the default US', () => {
    expect(DEFAULT_COUNTRIES).toHaveLength(23);
    const names = DEFAULT_COUNTRIES.map((c) => c.name);
    expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b, 'en')));
    expect(new Set(DEFAULT_COUNTRIES.map((c) => c.code)).size).toBe(23);
    expect(DEFAULT_COUNTRIES.some((c) => c.code === DEFAULT_BILLING_COUNTRY)).toBe(true);
  });

  it('each is a contract Country with its CLDR English name', () => {
    const region = new Intl.DisplayNames(['en'], { type: 'region' });
    for (const c of DEFAULT_COUNTRIES) {
      expect(CountrySchema.parse(c)).toEqual(c);
      expect(c.code).toMatch(/^[A-Z]{2}$/);
      expect(region.of(c.code)).toBe(c.name);
    }
  });

  it('its message is the spec’s', () => {
    expect(COUNTRIES_FALLBACK_MESSAGE).toBe('Failed to load countries. Using default options.');
  });
});
