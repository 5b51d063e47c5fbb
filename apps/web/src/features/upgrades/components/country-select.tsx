import { useId, useMemo } from 'react';
import { COUNTRIES_FALLBACK_MESSAGE, DEFAULT_COUNTRIES } from '@keyport/shared/domain/billing';
import { countryName, sortCountriesByName } from '@keyport/shared/domain/countries';
import { cn } from '../../../lib/cn';
import { useCountries } from '../api/get-countries';

interface CountrySelectProps {
  value: string;
  onChange: (code: string) => void;
  error?: string | null;
  disabled?: boolean;
}

/**
 * §5 "Country list": the portal's GET /countries sorted by name; if it fails, the built-in 23 countries with
 * 'Failed to load countries. Using default options.'
 */
export function CountrySelect({ value, onChange, error, disabled }: CountrySelectProps) {
  const id = useId();
  const countries = useCountries();
  const failed = countries.isError;
  const list = useMemo(
    () => sortCountriesByName(countries.data?.countries ?? (failed ? DEFAULT_COUNTRIES : [])),
    [countries.data, failed],
  );
  // While the list loads, the chosen country is still shown (the default US included).
  const options = list.length > 0 ? list : [{ code: value, name: countryName(value) }];
  const describedBy = [error ? `${id}-error` : null, failed ? `${id}-fallback` : null].filter(Boolean).join(' ');

  return (
    <div className="space-y-1.5">
      <label htmlFor={id} className="block text-sm font-medium text-slate-700">
        Country
      </label>
      <select
        id={id}
        value={value}
        autoComplete="country"
        disabled={disabled || countries.isPending}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy || undefined}
        onChange={(event) => onChange(event.target.value)}
        className={cn(
          'h-10 w-full rounded-lg border border-slate-300 bg-white px-3 text-sm text-slate-900',
          'focus:border-brand-500 focus:ring-2 focus:ring-brand-100 focus:outline-none aria-[invalid=true]:border-red-500',
          'disabled:cursor-not-allowed disabled:bg-slate-50 disabled:text-slate-500',
        )}
      >
        {options.map((country) => (
          <option key={country.code} value={country.code}>
            {country.name}
          </option>
        ))}
      </select>
      {failed ? (
        <p id={`${id}-fallback`} role="status" className="text-xs text-amber-700">
          {COUNTRIES_FALLBACK_MESSAGE}
        </p>
      ) : null}
      {error ? (
        <p id={`${id}-error`} role="alert" className="text-sm text-red-600">
          {error}
        </p>
      ) : null}
    </div>
  );
}
