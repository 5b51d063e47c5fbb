import { BadgeCheck, Loader2 } from 'lucide-react';
import { useId } from 'react';
import { countryName } from '@keyport/shared/domain/countries';
import { vatIdCountry } from '@keyport/shared/domain/vat';
import { Button } from '../../../components/ui/button';
import { Input } from '../../../components/ui/input';
import type { VatCheckResult } from './use-vat-verification';

/** A valid number of another country than the billing address's: VIES said yes, but reverse charge will not apply. */
export const VAT_OTHER_COUNTRY = (country: string) =>
  `This VAT number is registered in ${country}. Reverse charge applies with a billing address there.`;

interface VatIdFieldProps {
  value: string;
  /** The billing country: a number verified for another country is not shown as verified here. */
  country: string;
  onChange: (value: string) => void;
  check: VatCheckResult;
  onVerify: () => void;
  disabled?: boolean;
}

/**
 * The business's optional VAT ID with its VIES check (§4): verifying, valid (the company name and address VIES
 * holds), invalid or error, each announced under the field.
 */
export function VatIdField({ value, country, onChange, check, onVerify, disabled }: VatIdFieldProps) {
  const id = useId();
  const registeredIn = check.status === 'valid' && check.vatNumber ? vatIdCountry(check.vatNumber) : null;
  const otherCountry = registeredIn !== null && registeredIn !== country.toUpperCase() ? registeredIn : null;
  const failed = check.status === 'invalid' || check.status === 'error' || (check.status === 'idle' && check.message);
  return (
    <div className="space-y-1.5">
      <label htmlFor={id} className="block text-sm font-medium text-slate-700">
        VAT ID <span className="font-normal text-slate-500">(optional)</span>
      </label>
      <div className="flex gap-2">
        <Input
          id={id}
          value={value}
          autoComplete="off"
          spellCheck={false}
          placeholder="DE123456789"
          disabled={disabled}
          aria-invalid={failed ? true : undefined}
          aria-describedby={`${id}-status`}
          onChange={(event) => onChange(event.target.value)}
        />
        <Button
          variant="secondary"
          className="shrink-0"
          disabled={disabled || check.status === 'verifying' || check.status === 'valid'}
          onClick={onVerify}
        >
          Verify
        </Button>
      </div>
      <div id={`${id}-status`} aria-live="polite" data-testid="vat-status" data-status={check.status}>
        {check.status === 'verifying' ? (
          <p className="flex items-center gap-1.5 text-sm text-slate-600">
            <Loader2 aria-hidden="true" className="size-4 animate-spin motion-reduce:animate-none" />
            Verifying VAT number…
          </p>
        ) : otherCountry ? (
          <p className="text-sm text-amber-800">{VAT_OTHER_COUNTRY(countryName(otherCountry))}</p>
        ) : check.status === 'valid' ? (
          <div className="rounded-lg border border-emerald-200 bg-emerald-50 px-3 py-2 text-sm text-emerald-900">
            <p className="flex items-center gap-1.5 font-medium">
              <BadgeCheck aria-hidden="true" className="size-4" />
              VAT number verified
            </p>
            {check.companyName ? <p className="mt-1">{check.companyName}</p> : null}
            {check.companyAddress ? (
              <p className="text-xs whitespace-pre-line text-emerald-800">{check.companyAddress}</p>
            ) : null}
          </div>
        ) : check.message ? (
          <p className="text-sm text-red-600">{check.message}</p>
        ) : (
          <p className="text-xs text-slate-500">
            An EU business with a verified VAT ID of its billing country pays no VAT (reverse charge).
          </p>
        )}
      </div>
    </div>
  );
}
