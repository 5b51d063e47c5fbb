import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, Route, Routes } from 'react-router';
import { describe, expect, it } from 'vitest';
import type { StaffStoreReport } from '@keyport/shared/contracts/credits';
import { fakeApi, json } from '../../../test/fake-api';
import { ReportsPage } from './reports-page';

const known = { licensed_keys: 0, reporter_holds_key: false, other_reports: 0 };
const REPORT: StaffStoreReport = {
  id: 7,
  status: 'pending',
  reporter: { id: 3, email: 'ann@example.com', rejected_reports: 1, reports: { pending: 1, approved: 2, rejected: 1 } },
  domains: [
    {
      domain: 'copy-one.com',
      submitted: 'https://www.copy-one.com/',
      validation: { isValid: true, reason: 'Valid' },
      known,
    },
    {
      domain: 'copy-two.com',
      submitted: 'copy-two.com',
      validation: { isValid: true, reason: 'Valid' },
      known: { licensed_keys: 1, reporter_holds_key: false, other_reports: 2 },
    },
  ],
  created_at: '2026-11-20T09:00:00.000Z',
  reviewed_at: null,
  reviewed_by: null,
  review_note: null,
};

function renderPage(url: string) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <MemoryRouter initialEntries={[url]}>
        <Routes>
          <Route path="/staff/reports" element={<ReportsPage />} />
        </Routes>
      </MemoryRouter>
    </QueryClientProvider>,
  );
  return userEvent.setup();
}

describe('the store reports page', () => {
  it('shows each domain with its check and what the portal knows, the reporter history, and approves with a note', async () => {
    const api = fakeApi({
      'GET /staff/reports': () => json(200, { reports: [REPORT], next_cursor: null }),
      'POST /staff/reports/7/approve': () => json(200, { report: { ...REPORT, status: 'approved' } }),
    });
    const user = renderPage('/staff/reports?status=pending');
    const table = await screen.findByRole('table', { name: 'Store reports' });
    expect(await within(table).findByText('History: 1 pending, 2 approved, 1 rejected')).toBeTruthy();
    expect(within(table).getByText('(typed “https://www.copy-one.com/”)')).toBeTruthy();
    expect(within(table).getByText('No key of ours connected')).toBeTruthy();
    expect(within(table).getByText('1 key of ours connected · Reported by 2 other users')).toBeTruthy();
    // The status filter comes from the URL.
    await waitFor(() => expect(api.calls.at(-1)).toMatchObject({ path: '/staff/reports' }));
    expect((screen.getByRole('combobox', { name: 'Status' }) as HTMLSelectElement).value).toBe('pending');

    await user.click(within(table).getByRole('button', { name: 'Approve report #7' }));
    const dialog = screen.getByRole('dialog', { name: 'Approve report #7?' });
    await user.type(within(dialog).getByRole('textbox', { name: 'Reason' }), 'Five real copies');
    await user.click(within(dialog).getByRole('button', { name: 'Approve' }));
    await waitFor(() => expect(api.callsTo('POST', '/staff/reports/7/approve')).toHaveLength(1));
    expect(api.callsTo('POST', '/staff/reports/7/approve')[0]!.body).toEqual({ note: 'Five real copies' });
  });

  it('rejecting says the credit is taken back and sends the note', async () => {
    const api = fakeApi({
      'GET /staff/reports': () => json(200, { reports: [REPORT], next_cursor: null }),
      'POST /staff/reports/7/reject': () =>
        json(200, { report: { ...REPORT, status: 'rejected' }, balance: 0, owed: 0 }),
    });
    const user = renderPage('/staff/reports');
    await user.click(await screen.findByRole('button', { name: 'Reject report #7' }));
    const dialog = screen.getByRole('dialog', { name: 'Reject report #7?' });
    expect(dialog.textContent).toContain('The credit this report earned is taken back from ann@example.com');
    await user.type(within(dialog).getByRole('textbox', { name: 'Reason' }), 'Stores hold licenses');
    await user.click(within(dialog).getByRole('button', { name: 'Reject' }));
    await waitFor(() =>
      expect(api.callsTo('POST', '/staff/reports/7/reject')[0]?.body).toEqual({ note: 'Stores hold licenses' }),
    );
  });
});
