import { useId, useState } from 'react';
import type { BillingErrors, BillingField, BillingForm } from '@keyport/shared/domain/billing';
import { Field } from '../../../components/ui/field';
import { CountrySelect } from './country-select';
import type { VatCheckResult } from './use-vat-verification';
import { VatIdField } from './vat-id-field';

interface BillingFormFieldsProps {
  form: BillingForm;
  onChange: (form: BillingForm) => void;
  errors: BillingErrors;
  vatCheck: VatCheckResult;
  onVerifyVat: () => void;
  disabled?: boolean;
}

type TextField = Exclude<BillingField, 'country' | 'vat_id'>;

const FIELDS: { name: TextField; label: string; autoComplete: string; type?: string; half?: boolean }[] = [
  { name: 'name', label: 'Full name', autoComplete: 'name' },
  { name: 'email', label: 'Email', autoComplete: 'email', type: 'email' },
  { name: 'line1', label: 'Address line 1', autoComplete: 'address-line1' },
  { name: 'line2', label: 'Address line 2 (optional)', autoComplete: 'address-line2' },
  { name: 'city', label: 'City', autoComplete: 'address-level2', half: true },
  { name: 'state', label: 'State / region (optional)', autoComplete: 'address-level1', half: true },
  { name: 'postal_code', label: 'Postal code', autoComplete: 'postal-code', half: true },
];

/**
 * §5 "Billing form": name, email, address (line 1, line 2, city, state, postal code, country; default US) and a
 * business box that asks for the company name (required) and an optional VAT ID. A field's error shows once the
 * person has left it.
 */
export function BillingFormFields({ form, onChange, errors, vatCheck, onVerifyVat, disabled }: BillingFormFieldsProps) {
  const id = useId();
  const [left, setLeft] = useState<Partial<Record<BillingField, true>>>({});
  const errorOf = (field: BillingField) => (left[field] ? (errors[field] ?? null) : null);
  const set = (patch: Partial<BillingForm>) => onChange({ ...form, ...patch });
  const field = (spec: (typeof FIELDS)[number]) => (
    <div key={spec.name} className={spec.half ? 'sm:col-span-1' : 'sm:col-span-2'}>
      <Field
        label={spec.label}
        type={spec.type ?? 'text'}
        autoComplete={spec.autoComplete}
        value={form[spec.name]}
        disabled={disabled}
        error={errorOf(spec.name)}
        onChange={(event) => set({ [spec.name]: event.target.value })}
        onBlur={() => setLeft((current) => ({ ...current, [spec.name]: true }))}
      />
    </div>
  );

  return (
    <fieldset className="min-w-0 space-y-3" disabled={disabled}>
      <legend className="mb-1 text-sm font-semibold text-slate-900">Billing details</legend>
      <div className="grid gap-3 sm:grid-cols-2">
        {FIELDS.map(field)}
        <div className="sm:col-span-1">
          <CountrySelect
            value={form.country}
            onChange={(country) => set({ country })}
            error={errors.country ?? null}
            disabled={disabled}
          />
        </div>
      </div>
      <div className="flex items-center gap-2 pt-1">
        <input
          id={`${id}-business`}
          type="checkbox"
          checked={form.is_business}
          disabled={disabled}
          onChange={(event) => set({ is_business: event.target.checked })}
          className="size-4 rounded border-slate-300 accent-brand-600"
        />
        <label htmlFor={`${id}-business`} className="text-sm text-slate-800">
          I'm purchasing as a business
        </label>
      </div>
      {form.is_business ? (
        <div className="grid gap-3 rounded-xl border border-slate-200 bg-slate-50/60 p-3">
          <Field
            label="Company name"
            autoComplete="organization"
            value={form.company_name}
            disabled={disabled}
            error={left.company_name ? (errors.company_name ?? null) : null}
            onChange={(event) => set({ company_name: event.target.value })}
            onBlur={() => setLeft((current) => ({ ...current, company_name: true }))}
          />
          <VatIdField
            value={form.vat_id}
            country={form.country}
            onChange={(vat_id) => set({ vat_id })}
            check={vatCheck}
            onVerify={onVerifyVat}
            disabled={disabled}
          />
        </div>
      ) : null}
    </fieldset>
  );
}
