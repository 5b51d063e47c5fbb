import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import type { StaffVatRate } from '@keyport/shared/contracts/vat-rates';
import { fakeApi, json } from '../../../test/fake-api';
import { ratePercentToBp } from './rate-percent';
import { VatRatesPage } from './vat-rates-page';

const row = (rate: Partial<StaffVatRate> & Pick<StaffVatRate, 'country' | 'rate_bp'>): StaffVatRate => ({
  id: null,
  valid_from: null,
  source: 'spec',
  in_force: false,
  created_at: null,
  created_by_email: null,
  reason: null,
  ...rate,
});

const RATES: StaffVatRate[] = [
  row({ country: 'EE', rate_bp: 2000 }),
  row({ country: 'EE', rate_bp: 2200, valid_from: '2024-01-01', source: 'built_in' }),
  row({ country: 'EE', rate_bp: 2400, valid_from: '2025-07-01', source: 'built_in', in_force: true }),
  row({ country: 'DE', rate_bp: 1900, in_force: true }),
  row({
    country: 'FI',
    rate_bp: 2550,
    valid_from: '2024-09-01',
    source: 'staff',
    id: 3,
    in_force: true,
    created_at: '2026-11-20T10:00:00.000Z',
    created_by_email: 'anna@keyport.example',
    reason: 'Finnish rate rise',
  }),
];

function renderPage() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <MemoryRouter>
        <VatRatesPage />
      </MemoryRouter>
    </QueryClientProvider>,
  );
  return userEvent.setup();
}

describe('the VAT rates page', () => {
  it('lists every rate by country name and start, marks the ones in force today, and says who added one and why', async () => {
    fakeApi({ 'GET /staff/vat-rates': () => json(200, { today: '2026-11-26', rates: RATES }) });
    const user = renderPage();
    const table = await screen.findByRole('table', { name: 'VAT rates' });
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows.map((r) => r.textContent)).toEqual([
      'Estonia EE20%always (baseline)Spec §9 table—',
      'Estonia EE22%2024-01-01Built in (cited change)—',
      'Estonia EE24%in force today2025-07-01Built in (cited change)—',
      'Finland FI25.5%in force today2024-09-01Added by staff2026-11-20 · anna@keyport.exampleFinnish rate rise',
      'Germany DE19%in force todayalways (baseline)Spec §9 table—',
    ]);
    await user.type(screen.getByRole('textbox', { name: 'Filter by country' }), 'fin');
    expect(within(table).getAllByRole('row')).toHaveLength(2);
  });

  it('adds a rate with its start date and a reason; a rate that is not one stays in the dialog', async () => {
    const api = fakeApi({
      'GET /staff/vat-rates': () => json(200, { today: '2026-11-26', rates: RATES }),
      'POST /staff/vat-rates': () =>
        json(201, { rate: row({ country: 'EE', rate_bp: 2550, valid_from: '2027-01-01', source: 'staff', id: 4 }) }),
    });
    const user = renderPage();
    await user.click(await screen.findByRole('button', { name: 'Add a rate' }));
    const dialog = screen.getByRole('dialog', { name: 'Add a VAT rate' });
    await user.type(within(dialog).getByRole('textbox', { name: 'Country (ISO code)' }), 'ee');
    expect(within(dialog).getByText('Estonia')).toBeTruthy();
    await user.type(within(dialog).getByRole('textbox', { name: 'Standard rate (%)' }), '25,55,');
    const from = within(dialog).getByLabelText('Applies from');
    await user.clear(from);
    await user.type(from, '2027-01-01');
    await user.type(within(dialog).getByRole('textbox', { name: 'Reason' }), 'Estonian budget 2027');
    await user.click(within(dialog).getByRole('button', { name: 'Add rate' }));
    expect(await within(dialog).findByText('Enter a rate between 0 and 100 with at most two decimals')).toBeTruthy();
    expect(api.callsTo('POST', '/staff/vat-rates')).toHaveLength(0);

    const rate = within(dialog).getByRole('textbox', { name: 'Standard rate (%)' });
    await user.clear(rate);
    await user.type(rate, '25.5');
    await user.click(within(dialog).getByRole('button', { name: 'Add rate' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(api.callsTo('POST', '/staff/vat-rates').map((call) => call.body)).toEqual([
      { country: 'EE', rate_bp: 2550, valid_from: '2027-01-01', reason: 'Estonian budget 2027' },
    ]);
    // The list is read again after the addition.
    expect(api.callsTo('GET', '/staff/vat-rates').length).toBeGreaterThanOrEqual(2);
  });
});

describe('ratePercentToBp', () => {
  it.each<[string, number]>([
    ['25.5', 2550],
    ['8.1 %', 810],
    ['8,1', 810],
    ['0', 0],
    ['100', 10_000],
    ['19.25', 1925],
  ])('%j → %d', (text, bp) => {
    expect(ratePercentToBp(text)).toBe(bp);
  });

  it.each(['', 'abc', '25.555', '-1', '100.01', '101', '1e2'])('refuses %j', (text) => {
    expect(() => ratePercentToBp(text)).toThrow('Enter a rate between 0 and 100 with at most two decimals');
  });
});
