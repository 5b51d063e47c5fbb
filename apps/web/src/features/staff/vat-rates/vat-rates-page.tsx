import { VAT_RATE_MESSAGES, type StaffVatRate } from '@keyport/shared/contracts/vat-rates';
import { countryName } from '@keyport/shared/domain/countries';
import { formatVatRate } from '@keyport/shared/domain/money';
import { useMemo, useState } from 'react';
import { Alert } from '../../../components/ui/alert';
import { Badge } from '../../../components/ui/badge';
import { Field } from '../../../components/ui/field';
import { Skeleton } from '../../../components/ui/skeleton';
import { serverMessage } from '../../../lib/api-client';
import { ConfirmAction } from '../components/confirm-action';
import { StaffPageHeader } from '../components/staff-layout';
import { useAddVatRate } from './api/add-vat-rate';
import { useStaffVatRates } from './api/list-vat-rates';
import { ratePercentToBp } from './rate-percent';

const SOURCE_LABEL: Record<StaffVatRate['source'], string> = {
  spec: 'Spec §9 table',
  built_in: 'Built in (cited change)',
  staff: 'Added by staff',
};

function AddRate({ today }: { today: string }) {
  const add = useAddVatRate();
  const [country, setCountry] = useState('');
  const [rate, setRate] = useState('');
  const [from, setFrom] = useState(today);
  return (
    <ConfirmAction
      triggerLabel="Add a rate"
      triggerVariant="primary"
      triggerSize="md"
      title="Add a VAT rate"
      description="Quotes made on or after the start date use this rate; quotes already made keep theirs. A rate entered for the same country and start date replaces an earlier one."
      confirmLabel="Add rate"
      onConfirm={(reason) => {
        const code = country.trim().toUpperCase();
        if (!/^[A-Z]{2}$/.test(code)) throw new Error(VAT_RATE_MESSAGES.country);
        if (!/^\d{4}-\d{2}-\d{2}$/.test(from)) throw new Error(VAT_RATE_MESSAGES.date);
        return add.mutateAsync({ body: { country: code, rate_bp: ratePercentToBp(rate), valid_from: from, reason } });
      }}
    >
      <Field
        label="Country (ISO code)"
        placeholder="EE"
        maxLength={2}
        autoCapitalize="characters"
        value={country}
        hint={/^[A-Za-z]{2}$/.test(country.trim()) ? countryName(country) : undefined}
        onChange={(event) => setCountry(event.target.value)}
      />
      <Field
        label="Standard rate (%)"
        inputMode="decimal"
        placeholder="24"
        value={rate}
        onChange={(event) => setRate(event.target.value)}
      />
      <Field label="Applies from" type="date" value={from} onChange={(event) => setFrom(event.target.value)} />
    </ConfirmAction>
  );
}

const cell = 'border-t border-slate-100 px-3 py-2 align-top';

/** Issue 19 (ADR 036): the dated standard VAT rates by country; staff add a change with its start date and a reason. */
export function VatRatesPage() {
  const rates = useStaffVatRates();
  const [filter, setFilter] = useState('');
  const rows = useMemo(() => {
    const wanted = filter.trim().toLowerCase();
    return (rates.data?.rates ?? [])
      .map((rate) => ({ ...rate, name: countryName(rate.country) }))
      .filter(
        (rate) => wanted === '' || rate.country.toLowerCase() === wanted || rate.name.toLowerCase().includes(wanted),
      )
      .sort(
        (a, b) => a.name.localeCompare(b.name, 'en') || (a.valid_from ?? '').localeCompare(b.valid_from ?? '') || 0,
      );
  }, [rates.data, filter]);
  return (
    <>
      <StaffPageHeader
        title="VAT rates"
        description="Standard rates by country and the day each applies from. A quote uses the rate in force on its day (UTC) and keeps it; its invoice prints it. Countries not listed pay no VAT."
        actions={rates.data ? <AddRate today={rates.data.today} /> : null}
      />
      <div className="mb-4 max-w-xs">
        <Field label="Filter by country" value={filter} onChange={(event) => setFilter(event.target.value)} />
      </div>
      {rates.isPending ? (
        <Skeleton className="h-48 w-full" />
      ) : rates.error ? (
        <Alert>{serverMessage(rates.error) ?? 'Could not load the VAT rates.'}</Alert>
      ) : (
        <div className="relative overflow-x-auto rounded-xl border border-slate-200 bg-white">
          <table className="w-full border-collapse text-left text-sm">
            <caption className="sr-only">VAT rates</caption>
            <thead className="bg-slate-50">
              <tr>
                {['Country', 'Rate', 'Applies from', 'Source', 'Added'].map((header) => (
                  <th key={header} scope="col" className="px-3 py-2 text-xs font-semibold text-slate-600 uppercase">
                    {header}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {rows.map((rate) => (
                <tr key={`${rate.source}-${rate.id ?? ''}-${rate.country}-${rate.valid_from ?? ''}`}>
                  <td className={cell}>
                    {rate.name} <span className="text-xs text-slate-500">{rate.country}</span>
                  </td>
                  <td className={`${cell} whitespace-nowrap`}>
                    <span className="mr-2">{formatVatRate(rate.rate_bp)}</span>
                    {rate.in_force ? <Badge>in force today</Badge> : null}
                  </td>
                  <td className={`${cell} whitespace-nowrap`}>{rate.valid_from ?? 'always (baseline)'}</td>
                  <td className={cell}>{SOURCE_LABEL[rate.source]}</td>
                  <td className={`${cell} text-xs text-slate-600`}>
                    {rate.created_at ? (
                      <>
                        <div>
                          {rate.created_at.slice(0, 10)} · {rate.created_by_email ?? 'staff'}
                        </div>
                        <div>{rate.reason}</div>
                      </>
                    ) : (
                      '—'
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </>
  );
}
