import { screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { CreditHistoryEntry } from '@keyport/shared/contracts/credits';
import { fakeApi, json } from '../../../test/fake-api';
import { BALANCE, renderWithClient } from '../test/render';
import CreditHistoryDialog from './credit-history-dialog';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.clearAllMocks();
});

const line = (values: Partial<CreditHistoryEntry> & Pick<CreditHistoryEntry, 'id' | 'reason'>): CreditHistoryEntry => ({
  kind: 'grant',
  state: 'available',
  amount: 1,
  balance_after: 1,
  note: null,
  created_at: '2026-11-20T09:00:00.000Z',
  ...values,
});

const ENTRIES: CreditHistoryEntry[] = [
  line({
    id: 'report-9',
    kind: 'report',
    state: 'pending',
    balance_after: null,
    reason: 'Store report #9: pending review',
  }),
  line({ id: 'ledger-5', kind: 'debit', amount: -5, balance_after: 0, reason: 'REGULAR License' }),
  line({
    id: 'report-8',
    kind: 'report',
    state: 'dropped',
    balance_after: null,
    reason: 'Store report #8 rejected: its credit was not added',
    note: 'These stores hold licenses',
  }),
  line({ id: 'ledger-4', amount: 1, balance_after: 5, reason: 'Store report #7 approved', note: 'Five real copies' }),
  line({ id: 'ledger-3', amount: 4, balance_after: 4, reason: 'Added by our team', note: 'Sorry for the outage' }),
];

function renderDialog(answer: () => Response | Promise<Response>) {
  const api = fakeApi({
    'GET /credits/balance': () => json(200, { ...BALANCE, balance: 0, pending: 1 }),
    'GET /credits/history': answer,
  });
  const onClose = vi.fn();
  return { ...renderWithClient(<CreditHistoryDialog onClose={onClose} />), api, onClose };
}

describe('the credit history', () => {
  it('lists each movement with its reason, staff note, amount and balance; pending and dropped report credits say so', async () => {
    renderDialog(() => json(200, { entries: ENTRIES }));
    const dialog = screen.getByRole('dialog', { name: 'Credit History' });
    const lines = await within(dialog).findAllByTestId('credit-history-line');
    expect(lines.map((row) => row.textContent)).toEqual([
      expect.stringMatching(/^Store report #9: pending review.*Pending review\+1$/),
      expect.stringMatching(/^REGULAR License.*−5Balance 0$/),
      expect.stringMatching(
        /^Store report #8 rejected: its credit was not addedNote from our team: These stores hold licenses.*Not added\+1$/,
      ),
      expect.stringMatching(/^Store report #7 approvedNote from our team: Five real copies.*\+1Balance 5$/),
      expect.stringMatching(/^Added by our teamNote from our team: Sorry for the outage.*\+4Balance 4$/),
    ]);
    expect(within(dialog).getByTestId('credits-balance')).toHaveTextContent('Credits: 01 credit pending review');
  });

  it('says when there is nothing yet', async () => {
    renderDialog(() => json(200, { entries: [] }));
    expect(await screen.findByText('No credit history yet.')).toBeInTheDocument();
  });

  it('shows a failure with Try Again, which loads again', async () => {
    let fail = true;
    const { user, api } = renderDialog(() =>
      fail ? json(503, { error: 'Unavailable', code: 'unavailable' }) : json(200, { entries: ENTRIES }),
    );
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Unavailable');
    fail = false;
    await user.click(within(alert).getByRole('button', { name: 'Try Again' }));
    expect(await screen.findAllByTestId('credit-history-line')).toHaveLength(5);
    expect(api.callsTo('GET', '/credits/history')).toHaveLength(2);
  });
});
