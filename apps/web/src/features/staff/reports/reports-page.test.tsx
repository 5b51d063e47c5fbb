import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { StaffStoreReport } from '@keyport/shared/contracts/credits';
import { fakeApi, json } from '../../../test/fake-api';
import { renderStaffPage } from '../../../test/render-staff-page';
import { ReportsPage } from './reports-page';

const known = { licensed_keys: 0, reporter_holds_key: false, other_reports: 0, sightings: null };
const REPORT: StaffStoreReport = {
  id: 7,
  status: 'pending',
  credit: { amount: 1, state: 'pending' },
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
      known: { licensed_keys: 1, reporter_holds_key: false, other_reports: 2, sightings: null },
    },
  ],
  created_at: '2026-11-20T09:00:00.000Z',
  reviewed_at: null,
  reviewed_by: null,
  reviewed_automatically: false,
  review_note: null,
};

const renderPage = (url: string) => renderStaffPage('/staff/reports', <ReportsPage />, url);

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

    expect(within(table).getByTestId('report-credit')).toHaveTextContent('1 credit pending review');
    await user.click(within(table).getByRole('button', { name: 'Approve report #7' }));
    const dialog = screen.getByRole('dialog', { name: 'Approve report #7?' });
    expect(dialog.textContent).toContain(
      'The credit this report holds for ann@example.com is added to their balance at once and can be spent.',
    );
    await user.type(within(dialog).getByRole('textbox', { name: 'Reason' }), 'Five real copies');
    await user.click(within(dialog).getByRole('button', { name: 'Approve' }));
    await waitFor(() => expect(api.callsTo('POST', '/staff/reports/7/approve')).toHaveLength(1));
    expect(api.callsTo('POST', '/staff/reports/7/approve')[0]!.body).toEqual({ note: 'Five real copies' });
  });

  it("shows each domain's license sightings, the evidence of an unlicensed copy", async () => {
    const seen = {
      ...REPORT,
      domains: [
        {
          ...REPORT.domains[0]!,
          known: {
            ...known,
            sightings: { checkins: 1412, first_seen_at: '2026-11-02T08:00:00Z', last_seen_at: '2026-11-20T22:10:00Z' },
          },
        },
        {
          ...REPORT.domains[1]!,
          known: {
            ...known,
            sightings: { checkins: 1, first_seen_at: '2026-11-21T08:00:00Z', last_seen_at: '2026-11-21T08:00:00Z' },
          },
        },
      ],
    };
    fakeApi({ 'GET /staff/reports': () => json(200, { reports: [seen], next_cursor: null }) });
    renderPage('/staff/reports');
    const table = await screen.findByRole('table', { name: 'Store reports' });
    expect(
      await within(table).findByText(
        'Seen running an unlicensed copy: 1,412 check-ins, first Nov 2, 2026, last Nov 20, 2026',
      ),
    ).toBeTruthy();
    expect(within(table).getByText('Seen running an unlicensed copy: 1 check-in, on Nov 21, 2026')).toBeTruthy();
  });

  it('says nothing of sightings for a domain never seen', async () => {
    fakeApi({ 'GET /staff/reports': () => json(200, { reports: [REPORT], next_cursor: null }) });
    renderPage('/staff/reports');
    const table = await screen.findByRole('table', { name: 'Store reports' });
    await within(table).findByText('No key of ours connected');
    expect(within(table).queryByText(/Seen running/)).toBeNull();
  });

  it('a decided report says what became of its credit and who decided, the portal included', async () => {
    const decided: StaffStoreReport[] = [
      {
        ...REPORT,
        id: 8,
        status: 'approved',
        credit: { amount: 1, state: 'added' },
        reviewed_at: '2026-11-21T09:00:00.000Z',
        reviewed_automatically: true,
        review_note: 'Approved automatically: the theme’s license check saw all five stores.',
      },
      {
        ...REPORT,
        id: 9,
        status: 'rejected',
        credit: { amount: 1, state: 'dropped' },
        reviewed_at: '2026-11-21T09:00:00.000Z',
        reviewed_by: { id: 1, email: 'staff@example.com' },
        review_note: 'Licensed stores',
      },
    ];
    fakeApi({ 'GET /staff/reports': () => json(200, { reports: decided, next_cursor: null }) });
    renderPage('/staff/reports');
    const table = await screen.findByRole('table', { name: 'Store reports' });
    const credits = await within(table).findAllByTestId('report-credit');
    expect(credits.map((cell) => cell.textContent)).toEqual([
      '1 credit added to the balance',
      '1 credit dropped (never spendable)',
    ]);
    expect(
      within(table).getByText(
        'Automatically, on the license check’s evidence: “Approved automatically: the theme’s license check saw all five stores.”',
      ),
    ).toBeTruthy();
    expect(within(table).getByText('By staff@example.com: “Licensed stores”')).toBeTruthy();
  });

  it('rejecting says the pending credit is dropped and sends the note', async () => {
    const api = fakeApi({
      'GET /staff/reports': () => json(200, { reports: [REPORT], next_cursor: null }),
      'POST /staff/reports/7/reject': () =>
        json(200, { report: { ...REPORT, status: 'rejected' }, balance: 0, owed: 0 }),
    });
    const user = renderPage('/staff/reports');
    await user.click(await screen.findByRole('button', { name: 'Reject report #7' }));
    const dialog = screen.getByRole('dialog', { name: 'Reject report #7?' });
    expect(dialog.textContent).toContain(
      'The credit this report holds for ann@example.com is dropped; it was never spendable.',
    );
    await user.type(within(dialog).getByRole('textbox', { name: 'Reason' }), 'Stores hold licenses');
    await user.click(within(dialog).getByRole('button', { name: 'Reject' }));
    await waitFor(() =>
      expect(api.callsTo('POST', '/staff/reports/7/reject')[0]?.body).toEqual({ note: 'Stores hold licenses' }),
    );
  });
});
