import { screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ReportValidation } from '@keyport/shared/contracts/credits';
import { fakeApi, json } from '../../../test/fake-api';
import { CREDIT_EVENTS, onCreditEvent } from '../../../lib/credit-events';
import { queryKeys } from '../../../lib/query-keys';
import { BALANCE, renderWithClient } from '../test/render';
import ReportStoresDialog from './report-stores-dialog';

const toast = vi.hoisted(() => ({ success: vi.fn(), error: vi.fn(), info: vi.fn() }));
vi.mock('sonner', () => ({ toast }));

afterEach(() => {
  vi.unstubAllGlobals();
  vi.clearAllMocks();
});

const STORES = ['pirate-one.com', 'pirate-two.com', 'pirate-three.com', 'pirate-four.com', 'pirate-five.com'];
const valid = (domain: string): ReportValidation => ({ domain, isValid: true, reason: 'Valid' });

function renderDialog(handlers: Parameters<typeof fakeApi>[0] = {}) {
  const api = fakeApi({ 'GET /credits/balance': () => json(200, BALANCE), ...handlers });
  const onClose = vi.fn();
  const onReported = vi.fn();
  const rendered = renderWithClient(<ReportStoresDialog onClose={onClose} onReported={onReported} />);
  const row = (n: number) => screen.getByLabelText(`Store ${n}`);
  const submit = () => screen.getByRole('button', { name: 'Submit Report' });
  const fillAll = async (stores = STORES) => {
    for (const [i, store] of stores.entries()) {
      await rendered.user.click(row(i + 1));
      await rendered.user.paste(store); // one domain: pasted as typed
    }
  };
  return { ...rendered, api, onClose, onReported, row, submit, fillAll };
}

describe('§2 dialog 10 Earn 1 Free Credit', () => {
  it('starts with five empty labelled rows, says what counts, and submits only when all five are filled', async () => {
    const { row, submit, user, fillAll } = renderDialog();
    const dialog = screen.getByRole('dialog', { name: 'Earn 1 Free Credit' });
    expect(dialog).toHaveAccessibleDescription(
      'Report 5 stores running an unlicensed copy of the theme. Staff review every report; its credit can be spent once they approve it. False reports may lead to account restrictions.',
    );
    for (const n of [1, 2, 3, 4, 5]) expect(row(n)).toHaveValue('');
    expect(submit()).toBeDisabled();
    expect(screen.getByText('Please enter all 5 store domains.')).toBeInTheDocument();
    await fillAll(STORES.slice(0, 4));
    expect(submit()).toBeDisabled();
    await user.type(row(5), '   ');
    expect(submit()).toBeDisabled(); // spaces are not a domain
    await user.type(row(5), 'x.com');
    expect(submit()).toBeEnabled();
    expect(screen.queryByText('Please enter all 5 store domains.')).not.toBeInTheDocument();
    expect(await screen.findByTestId('credits-balance')).toHaveTextContent('Credits: 3');
  });

  it("pasting a list fills the rows from the one pasted into, and says 'Auto-filled {n} store URLs'", async () => {
    const { row, user } = renderDialog();
    await user.click(row(1));
    await user.paste('https://pirate-one.com, pirate-two.com\npirate-three.co.uk not-a-store  pirate-four.shop');
    expect([1, 2, 3, 4, 5].map((n) => (row(n) as HTMLInputElement).value)).toEqual([
      'https://pirate-one.com',
      'pirate-two.com',
      'pirate-three.co.uk',
      'pirate-four.shop',
      '',
    ]);
    expect(screen.getByRole('status')).toHaveTextContent('Auto-filled 4 store URLs');
  });

  it('fills at most five, wrapping to the first rows when pasted lower down', async () => {
    const { row, user } = renderDialog();
    await user.click(row(4));
    await user.paste('a.com b.com c.com d.com e.com f.com');
    expect([1, 2, 3, 4, 5].map((n) => (row(n) as HTMLInputElement).value)).toEqual([
      'c.com',
      'd.com',
      'e.com',
      'a.com',
      'b.com',
    ]);
    expect(screen.getByRole('status')).toHaveTextContent('Auto-filled 5 store URLs');
  });

  it('one domain pasted is pasted as typed, with no message', async () => {
    const { row, user } = renderDialog();
    await user.click(row(2));
    await user.paste('pirate-two.com');
    expect(row(2)).toHaveValue('pirate-two.com');
    expect(row(1)).toHaveValue('');
    expect(screen.queryByText(/Auto-filled/)).not.toBeInTheDocument();
  });

  it('not all qualified: each row says why, red or green, described to assistive tech; editing a row resets it', async () => {
    const { row, submit, user, fillAll, api, onClose } = renderDialog({
      'POST /credits/report-store': () =>
        json(200, {
          ok: false,
          balance: 3,
          pending: 0,
          credit: null,
          validations: [
            valid('pirate-one.com'),
            { domain: 'pirate-two.com', isValid: false, reason: 'This store holds a license of ours.' },
            ...STORES.slice(2).map(valid),
          ],
        }),
    });
    await fillAll();
    await user.click(submit());
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Not all stores qualified. Check the validation status below.',
    );
    expect(api.callsTo('POST', '/credits/report-store')[0]!.body).toEqual({ storeDomains: STORES });
    // "…below": the message sits above the rows it points to.
    expect(screen.getByRole('alert').compareDocumentPosition(row(1)) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    expect(row(2)).toHaveAttribute('aria-invalid', 'true');
    expect(row(2)).toHaveAccessibleDescription('This store holds a license of ours.');
    expect(screen.getByText('This store holds a license of ours.')).toHaveClass('text-red-600');
    expect(row(1)).not.toHaveAttribute('aria-invalid');
    expect(row(1)).toHaveAccessibleDescription('Valid');
    expect(screen.getAllByText('Valid')[0]).toHaveClass('text-emerald-700');
    expect(onClose).not.toHaveBeenCalled();

    await user.type(row(2), 'x');
    expect(row(2)).not.toHaveAttribute('aria-invalid');
    expect(row(2)).not.toHaveAccessibleDescription();
    expect(screen.queryByText('This store holds a license of ours.')).not.toBeInTheDocument();
    expect(row(1)).toHaveAccessibleDescription('Valid'); // the other rows keep theirs
  });

  it('all five qualified: toast saying the credit is pending review, balance announced, refresh asked for, closed', async () => {
    const { submit, user, fillAll, onClose, onReported, client } = renderDialog({
      'POST /credits/report-store': () =>
        json(200, { ok: true, balance: 3, pending: 1, credit: 'pending', validations: STORES.map(valid) }),
    });
    const balanceChanged = vi.fn();
    const stop = onCreditEvent(CREDIT_EVENTS.creditsBalanceChanged, balanceChanged);
    await screen.findByText('3');
    await fillAll();
    await user.click(submit());
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(toast.success).toHaveBeenCalledWith('Credit added! All 5 stores were valid.', {
      description: 'Your credit is pending review: you can spend it once our team approves the report.',
    });
    expect(balanceChanged).toHaveBeenCalledWith({ balance: 3 });
    expect(client.getQueryData(queryKeys.creditsBalance)).toMatchObject({ balance: 3, pending: 1 });
    expect(onReported).toHaveBeenCalledTimes(1);
    stop();
  });

  it('all five qualified and approved on the evidence at once: the spec toast alone', async () => {
    const { submit, user, fillAll, onClose } = renderDialog({
      'POST /credits/report-store': () =>
        json(200, { ok: true, balance: 4, pending: 0, credit: 'available', validations: STORES.map(valid) }),
    });
    await fillAll();
    await user.click(submit());
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(toast.success).toHaveBeenCalledWith('Credit added! All 5 stores were valid.', undefined);
  });

  it.each([
    [
      'a server failure',
      () => json(500, { error: 'Internal Server Error', code: 'internal' }),
      'Please try again later.',
    ],
    ['a dropped connection', () => Promise.reject(new TypeError('Failed to fetch')), 'Please try again later.'],
    [
      'too many reports (429)',
      () => json(429, { error: 'You can send 3 reports a day. Try again tomorrow.', code: 'rate_limited' }),
      'You can send 3 reports a day. Try again tomorrow.',
    ],
    [
      'a restricted account (403)',
      () => json(403, { error: 'Reporting is no longer available on this account.', code: 'reporting_restricted' }),
      'Reporting is no longer available on this account.',
    ],
  ])('%s', async (_name, answer, message) => {
    const { submit, user, fillAll, onClose, onReported } = renderDialog({ 'POST /credits/report-store': answer });
    await fillAll();
    await user.click(submit());
    expect(await screen.findByRole('alert')).toHaveTextContent(new RegExp(`^${message.replace(/\./g, '\\.')}$`));
    expect(onClose).not.toHaveBeenCalled();
    expect(onReported).not.toHaveBeenCalled();
    expect(submit()).toBeEnabled(); // the rows are kept: try again
  });
});
