import { useId } from 'react';
import { Controller, useWatch, type UseFormReturn } from 'react-hook-form';
import { validateBilling, type BillingField, type BillingForm } from '@keyport/shared/domain/billing';
import { Field } from '../../../components/ui/field';
import { CountrySelect } from './country-select';
import type { VatCheckResult } from './use-vat-verification';
import { VatIdField } from './vat-id-field';

interface BillingFormFieldsProps {
  form: UseFormReturn<BillingForm>;
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
export function BillingFormFields({ form, vatCheck, onVerifyVat, disabled }: BillingFormFieldsProps) {
  const id = useId();
  const values = useWatch({ control: form.control }) as BillingForm;
  // react-hook-form validates a field once it was left (mode onTouched), then as it changes.
  const { errors } = form.formState;
  const errorOf = (field: BillingField) => errors[field]?.message ?? null;
  const field = (spec: (typeof FIELDS)[number]) => (
    <div key={spec.name} className={spec.half ? 'sm:col-span-1' : 'sm:col-span-2'}>
      <Field
        label={spec.label}
        type={spec.type ?? 'text'}
        autoComplete={spec.autoComplete}
        disabled={disabled}
        error={errorOf(spec.name)}
        {...form.register(spec.name)}
      />
    </div>
  );

  return (
    <fieldset className="min-w-0 space-y-3" disabled={disabled}>
      <legend className="mb-1 text-sm font-semibold text-slate-900">Billing details</legend>
      <div className="grid gap-3 sm:grid-cols-2">
        {FIELDS.map(field)}
        <div className="sm:col-span-1">
          <Controller
            control={form.control}
            name="country"
            render={({ field: country }) => (
              <CountrySelect
                value={country.value}
                onChange={country.onChange}
                error={validateBilling(values).country ?? null}
                disabled={disabled}
              />
            )}
          />
        </div>
      </div>
      <div className="flex items-center gap-2 pt-1">
        <input
          id={`${id}-business`}
          type="checkbox"
          disabled={disabled}
          {...form.register('is_business')}
          className="size-4 rounded border-slate-300 accent-brand-600"
        />
        <label htmlFor={`${id}-business`} className="text-sm text-slate-800">
          I'm purchasing as a business
        </label>
      </div>
      {values.is_business ? (
        <div className="grid gap-3 rounded-xl border border-slate-200 bg-slate-50/60 p-3">
          <Field
            label="Company name"
            autoComplete="organization"
            disabled={disabled}
            error={errorOf('company_name')}
            {...form.register('company_name')}
          />
          <Controller
            control={form.control}
            name="vat_id"
            render={({ field: vatId }) => (
              <VatIdField
                value={vatId.value}
                country={values.country}
                onChange={vatId.onChange}
                check={vatCheck}
                onVerify={onVerifyVat}
                disabled={disabled}
              />
            )}
          />
        </div>
      ) : null}
    </fieldset>
  );
}
